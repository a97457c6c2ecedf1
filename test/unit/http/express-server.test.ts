import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createExpressServer } from '../../../src/http/express-server.js';

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An app that answers which app it is, and what Node built for it before Express saw the request. */
function appNamed(name: string): { app: Express; server: Server; bornWith: boolean[] } {
  const app = express();
  app.get('/', (req, res) => {
    res.json({ app: name, sameApp: req.app === app, nodeRequest: req instanceof IncomingMessage, nodeResponse: res instanceof ServerResponse });
  });
  app.post('/echo', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => res.type('text/plain').send(Buffer.concat(chunks)));
  });
  const server = createExpressServer(app, { keepAliveTimeout: 1_234 });
  const bornWith: boolean[] = [];
  // Runs before the app: what Node built, before Express could change anything.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    bornWith.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
  });
  return { app, server, bornWith };
}

describe('createExpressServer', () => {
  it('builds each request and response with the app\'s own prototypes, before the app sees them', async () => {
    const { server, bornWith } = appNamed('a');
    const url = await listening(server);
    const answer = await (await fetch(url)).json();
    expect(answer).toEqual({ app: 'a', sameApp: true, nodeRequest: true, nodeResponse: true });
    expect(bornWith).toEqual([true]);
  });

  it('keeps each app\'s prototypes apart when two apps serve in one process', async () => {
    const a = appNamed('a');
    const b = appNamed('b');
    const [urlA, urlB] = await Promise.all([listening(a.server), listening(b.server)]);
    expect(((await (await fetch(urlB)).json()) as { app: string }).app).toBe('b');
    expect(((await (await fetch(urlA)).json()) as { app: string }).app).toBe('a');
    expect([...a.bornWith, ...b.bornWith]).toEqual([true, true]);
  });

  it('streams request bodies, serves several requests on one connection and keeps the server options', async () => {
    const { server } = appNamed('a');
    const url = await listening(server);
    expect(server.keepAliveTimeout).toBe(1_234);
    const body = 'x'.repeat(200_000);
    for (let i = 0; i < 3; i += 1) {
      const answer = await fetch(`${url}/echo`, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(body);
    }
  });
});
