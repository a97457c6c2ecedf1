import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { exceptUnder, series, under } from '../../../src/http/series.js';

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** An app with `steps` as one series, then a last layer that answers what ran, and an error layer that answers the error. */
async function serve(...steps: Parameters<typeof series>): Promise<(path?: string) => Promise<string>> {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.ran = [];
    next();
  });
  app.use('/api', series(...steps));
  app.use((_req, res) => {
    res.send(`after: ${(res.locals.ran as string[]).join(' ')}`);
  });
  app.use(((err: Error, _req, res, _next) => {
    res.status(500).send(`error ${err.message}: ${(res.locals.ran as string[]).join(' ')}`);
  }) as ErrorRequestHandler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  closers.push(() => server.close());
  const { port } = server.address() as AddressInfo;
  return async (path = '/api/x') => (await fetch(`http://127.0.0.1:${port}${path}`)).text();
}

const step = (name: string): RequestHandler => (_req, res, next) => {
  (res.locals.ran as string[]).push(name);
  next();
};

/** An error-handling step that records its name, then passes the error on or, with `clears`, clears it. */
const onError = (name: string, clears = false): ErrorRequestHandler => (err, _req, res, next) => {
  (res.locals.ran as string[]).push(name);
  next(clears ? undefined : err);
};

const fail: RequestHandler = (_req, _res, next) => next(new Error('boom'));

describe('series: steps as one Express layer', () => {
  it('runs the steps in order, then the layers after it', async () => {
    const get = await serve(step('a'), step('b'), step('c'));
    expect(await get()).toBe('after: a b c');
  });

  it('is mounted like any layer: a path it is not mounted on skips it', async () => {
    const get = await serve(step('a'));
    expect(await get('/elsewhere')).toBe('after: ');
  });

  it('skips error-handling steps while there is no error', async () => {
    const get = await serve(step('a'), onError('handler', true), step('b'));
    expect(await get()).toBe('after: a b');
  });

  it('after next(error), runs only error-handling steps, which may pass the error on or clear it', async () => {
    const [passOn, clear] = [onError('passOn'), onError('clear', true)];
    expect(await (await serve(step('a'), fail, step('skipped'), passOn))()).toBe('error boom: a passOn');
    expect(await (await serve(fail, passOn, step('skipped'), clear, step('b')))()).toBe('after: passOn clear b');
  });

  it('a series inside a series is one step: an error before it passes it by whole, its error-handling steps included', async () => {
    const [inner, outer] = [onError('inner'), onError('outer')];
    expect(await (await serve(series(step('a'), fail), series(step('skipped'), inner), outer))()).toBe('error boom: a outer');
    // An error raised inside it still reaches its own error-handling steps, then the ones after it.
    expect(await (await serve(series(step('a')), series(fail, inner), outer))()).toBe('error boom: a inner outer');
    expect(await (await serve(series(step('a')), series(step('b'), inner), step('c')))()).toBe('after: a b c');
  });

  it('a throw or a rejected promise is an error like next(error)', async () => {
    const throws: RequestHandler = () => {
      throw new Error('thrown');
    };
    const rejects: RequestHandler = async () => {
      await Promise.resolve();
      throw new Error('rejected');
    };
    expect(await (await serve(step('a'), throws, step('skipped')))()).toBe('error thrown: a');
    expect(await (await serve(step('a'), rejects, step('skipped')))()).toBe('error rejected: a');
  });

  it('a step that answers ends the request: nothing after it runs', async () => {
    const answers: RequestHandler = (_req, res) => {
      res.send('answered');
    };
    expect(await (await serve(step('a'), answers, step('skipped')))()).toBe('answered');
  });
});

describe('under: steps for one path prefix, without a mount', () => {
  async function serveUnder(prefixes: string | string[], wrap: typeof under = under): Promise<(path: string) => Promise<string>> {
    const app = express();
    const start: RequestHandler = (_req, res, next) => {
      res.locals.ran = [];
      next();
    };
    app.use(series(start, wrap(prefixes, (req, res, next) => {
      (res.locals.ran as string[]).push(`under ${req.baseUrl}|${req.path}`);
      next();
    })));
    app.use((_req, res) => {
      res.send((res.locals.ran as string[]).join(' ') || 'skipped');
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    closers.push(() => server.close());
    const { port } = server.address() as AddressInfo;
    return async (path) => (await fetch(`http://127.0.0.1:${port}${path}`)).text();
  }

  it('runs for the prefix itself and the paths below it, with the URL left whole', async () => {
    const get = await serveUnder('/api/v1');
    expect(await get('/api/v1')).toBe('under |/api/v1');
    expect(await get('/api/v1/me?x=1')).toBe('under |/api/v1/me');
  });

  it('skips paths that only begin with the same letters, other letter cases and other prefixes', async () => {
    const get = await serveUnder(['/api/v1', '/api/workspace']);
    for (const path of ['/api/v10', '/api/v1x/me', '/API/v1/me', '/api', '/docs']) expect(await get(path)).toBe('skipped');
    expect(await get('/api/workspace/x')).toBe('under |/api/workspace/x');
  });

  it('exceptUnder is the other side of the same rule', async () => {
    const get = await serveUnder('/api', exceptUnder);
    for (const path of ['/api', '/api/v1/me']) expect(await get(path)).toBe('skipped');
    for (const path of ['/apix', '/API/v1', '/docs']) expect(await get(path)).toBe(`under |${path}`);
  });
});
