// walks-operations: asks every operation of the contract (test/scaffold/ runs it after adding an endpoint)
import { spawn } from 'node:child_process';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { operationsWithoutExamples, readOperations } from '../../src/mock/example-handlers.js';
import { startMockServer, type MockServer } from '../../src/mock/mock-server.js';
import { sendRaw } from '../support/http.js';

type Json = Record<string, any>;
const doc = loadOpenApiDocument() as Json;
const root = fileURLToPath(new URL('../..', import.meta.url));

const deref = (v: any): any => (typeof v?.$ref === 'string' ? deref(v.$ref.slice(2).split('/').reduce((n: any, k: string) => n[k], doc)) : v);

/** The documented example of an operation's response, as the contract states it. */
function documentedExample(operationId: string, status: string, mediaType = 'application/json'): unknown {
  const op = readOperations(doc).find((o) => o.operationId === operationId)!;
  const media = deref(op.responses[status]).content[mediaType];
  return media.example ?? deref(Object.values(media.examples ?? {})[0]).value;
}

/**
 * A concrete URL for an operation: each path parameter from its documented example, or where the
 * contract gives none, from its schema (an enum's first value, a UUID for a `uuid`).
 */
function urlFor(path: string, op: Json): string {
  const params = [...(doc.paths[path].parameters ?? []), ...(op.parameters ?? [])].map(deref);
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = params.find((p: Json) => p.name === name && p.in === 'path');
    const schema = deref(param?.schema) ?? {};
    const value = param?.example ?? schema.enum?.[0] ?? schema.example ?? (schema.format === 'uuid' ? '5b0e7c1e-3c52-4d3a-9a43-0f3a3c1f8d21' : undefined);
    if (value === undefined) throw new Error(`${op.operationId}: no example for {${name}} and none its schema gives`);
    return encodeURIComponent(String(value));
  });
}

describe('npm run mock', () => {
  let mock: MockServer;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${mock.url}${path}`, { headers });
  const withKey = (extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${mock.key}`, ...extra });

  beforeAll(async () => {
    mock = await startMockServer({ logger: pino({ level: 'silent' }) });
  });
  afterAll(() => mock.close());

  it('listens on loopback only', () => {
    expect(new URL(mock.url).hostname).toBe('127.0.0.1');
  });

  it('when GET /api/v1/me carries the key, answers 200 with the documented example and the rate-limit headers', async () => {
    const res = await get('/api/v1/me', withKey());
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-policy')).toBe('"workspace";q=120;w=60');
    expect(res.headers.get('ratelimit')).toMatch(/^"workspace";r=\d+;t=\d+$/);
    expect(res.headers.get('x-request-id')).toMatch(/.+/);
    expect(await res.json()).toEqual(documentedExample('getMe', '200'));
  });

  it('when GET /api/v1/visibility/prompts/{prompt} is called with any prompt id, answers the documented analytics example', async () => {
    const res = await get('/api/v1/visibility/prompts/3fa85f64-5717-4562-b3fc-2c963f66afa6?range=7d', withKey());
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(documentedExample('getPromptAnalytics', '200'));
  });

  it('answers every read operation of the contract from its documented example', async () => {
    expect(operationsWithoutExamples(doc)).toEqual([]);
    const failures: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Json).filter(([p]) => p.startsWith('/api/v1/'))) {
      const op = (item as Json).get;
      if (!op) continue;
      const res = await get(urlFor(path, op), withKey());
      const mediaType = Object.keys(deref(op.responses['200']).content)[0]!;
      const body = mediaType === 'application/json' ? await res.json() : await res.text();
      const example = documentedExample(op.operationId, '200', mediaType);
      // A download's example is the file's text, NDJSON lines included (the media type's x-item-schema
      // describes one line).
      const expected = example;
      if (res.status !== 200 || JSON.stringify(body) !== JSON.stringify(expected)) failures.push(`${op.operationId}: ${res.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('when no key is sent, answers 401 with code 4021, exactly as the service does', async () => {
    const res = await get('/api/v1/me');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 4021, messages: 'No API key: send `Authorization: Bearer <key>` or `X-API-KEY: <key>`.', data: null });
  });

  it('when the key is not one the mock knows, answers 401 with code 4022', async () => {
    const res = await get('/api/v1/workspace', { 'X-API-KEY': 'wsk_live_not-a-real-key' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 4022, messages: 'The API key is invalid, revoked or expired.', data: null });
  });

  it('when a parameter is invalid, answers 422 with code 4220 naming it', async () => {
    const res = await get('/api/v1/visibility/prompts?range=5d', withKey());
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      code: 4220,
      messages: 'Invalid parameters: query.range must be equal to one of the allowed values: 7d, 30d, 90d.',
      data: { errors: [{ in: 'query', name: 'range', message: 'must be equal to one of the allowed values: 7d, 30d, 90d' }] },
    });
  });

  it('when the route does not exist, answers 404 with code 4040', async () => {
    const res = await get('/api/v1/no-such-thing', withKey());
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 4040, messages: 'No route GET /api/v1/no-such-thing.', data: null });
  });

  it('when Prefer asks for a documented 404, answers that example', async () => {
    const res = await get('/api/v1/visibility/prompts/3fa85f64-5717-4562-b3fc-2c963f66afa6', withKey({ Prefer: 'code=404' }));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(documentedExample('getPromptAnalytics', '404'));
  });

  it('when an export asks for CSV, answers the documented CSV as a download', async () => {
    const res = await get('/api/v1/visibility/exports/answers?format=csv', withKey());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.csv"$/);
    expect(await res.text()).toBe(documentedExample('exportAnswers', '200', 'text/csv'));
  });
});

describe('npm run mock: the service\'s HTTP conventions', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ logger: pino({ level: 'silent' }) });
  });
  afterAll(() => mock.close());
  const analytics = '/api/v1/visibility/prompts/3fa85f64-5717-4562-b3fc-2c963f66afa6?range=7d';

  it('answers HEAD with the GET\'s status and headers and no body, and a matching If-None-Match with 304', async () => {
    const headers = { authorization: `Bearer ${mock.key}` };
    const get = await sendRaw(mock.url, { path: analytics, headers });
    const head = await sendRaw(mock.url, { method: 'HEAD', path: analytics, headers });
    expect([head.status, head.body.length, head.headers.etag, head.headers['content-length']])
      .toEqual([200, 0, get.headers.etag, get.headers['content-length']]);
    expect(get.headers.etag).toMatch(/^W\//);
    const again = await sendRaw(mock.url, { path: analytics, headers: { ...headers, 'if-none-match': String(get.headers.etag) } });
    expect([again.status, again.body.length]).toEqual([304, 0]);
  });

  it('when started with allowed origins, answers their preflights and lets their pages read the headers', async () => {
    const origin = 'http://localhost:5173';
    const withCors = await startMockServer({ logger: pino({ level: 'silent' }), corsAllowedOrigins: [origin] });
    try {
      const preflight = await sendRaw(withCors.url, {
        method: 'OPTIONS',
        path: '/api/v1/me',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
      expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([204, origin]);
      const call = await sendRaw(withCors.url, { path: '/api/v1/me', headers: { origin, authorization: `Bearer ${withCors.key}` } });
      expect([call.status, call.headers['access-control-allow-origin']]).toEqual([200, origin]);
      expect(String(call.headers['access-control-expose-headers'])).toContain('ETag');
    } finally {
      await withCors.close();
    }
  });

  it('compresses an answer of 1 KiB or more when asked to', async () => {
    const res = await sendRaw(mock.url, { path: analytics, headers: { authorization: `Bearer ${mock.key}`, 'accept-encoding': 'gzip' } });
    expect([res.status, res.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(JSON.parse(gunzipSync(res.body).toString('utf8'))).toEqual(documentedExample('getPromptAnalytics', '200'));
  });
});

describe('npm run mock (the command)', () => {
  it('prints its address and key, then serves /api/v1/me', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/mock/main.ts', '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      const banner = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          if (/wsk_live_\w+/.test(out) && /Reference: /.test(out)) resolve(out);
        });
        child.once('exit', (code) => reject(new Error(`mock exited with ${code}: ${out}`)));
      });
      const url = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
      const key = /(wsk_live_\w+)/.exec(banner)![1]!;
      const res = await fetch(`${url}/api/v1/me`, { headers: { 'X-API-KEY': key } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(documentedExample('getMe', '200'));
    } finally {
      child.kill('SIGTERM');
    }
  }, 30_000);

  it('refuses a port not written in plain decimal digits (0x0, 1e1) before serving anything', async () => {
    for (const port of ['0x0', '1e1']) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/mock/main.ts', '--port', port], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString('utf8'); });
      const outcome = await Promise.race([
        new Promise<number | null>((resolve) => child.once('exit', resolve)),
        new Promise<'serving'>((resolve) => child.stdout.once('data', () => resolve('serving'))),
      ]);
      if (outcome === 'serving') child.kill('SIGTERM');
      expect(outcome, `--port ${port}`).toBe(1);
      expect(stderr).toContain(`--port "${port}" is not a port number`);
    }
  }, 30_000);
});
