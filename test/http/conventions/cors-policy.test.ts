import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { parseRateLimit, sendRaw } from '../../support/http.js';
import { useTestServer, type TestServer } from '../../support/test-server.js';

const APP = 'https://dashboard.example.test';
const OTHER = 'https://elsewhere.example.test';
const EXPOSED = ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'ETag', 'X-Request-Id'];

const server = useTestServer({ http: { corsAllowedOrigins: [APP, 'http://localhost:5173'] } });
const closed = useTestServer();

const CORS_HEADERS = /^access-control-/;
const corsHeadersOf = (headers: Record<string, unknown>) => Object.keys(headers).filter((name) => CORS_HEADERS.test(name));

function preflight(target: TestServer, origin: string) {
  return sendRaw(target.url, {
    method: 'OPTIONS',
    path: '/api/v1/visibility/prompts',
    headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization, if-none-match' },
  });
}

describe('CORS for the read API (CORS_ALLOWED_ORIGINS)', () => {
  it('when an allowed origin sends a preflight, answers it before authentication and without counting it', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await preflight(server, APP);
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD');
    expect(res.headers['access-control-allow-headers']).toBe('Authorization,X-API-KEY,If-None-Match,X-Request-Id');
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.headers.vary).toContain('Origin');
    expect(res.body.length).toBe(0);
    // The next real request is the workspace's first: the preflight was not counted.
    const real = await sendRaw(server.url, { path: '/api/v1/me', headers: { origin: APP, authorization: `Bearer ${ws.key}` } });
    expect(parseRateLimit(String(real.headers.ratelimit)).r).toBe(119);
  });

  it('when an allowed origin calls, lets its page read the rate-limit headers, Retry-After, ETag and X-Request-Id, on success and on error', async () => {
    const ws = await createTestWorkspace(server.store);
    for (const headers of [{ authorization: `Bearer ${ws.key}` }, {}] as Array<Record<string, string>>) {
      const res = await sendRaw(server.url, { path: '/api/v1/workspace', headers: { origin: APP, ...headers } });
      expect(res.headers['access-control-allow-origin']).toBe(APP);
      expect(String(res.headers['access-control-expose-headers']).split(',')).toEqual(expect.arrayContaining(EXPOSED));
    }
  });

  it('when another origin calls or sends a preflight, answers without any CORS header, so its browser reads nothing', async () => {
    const ws = await createTestWorkspace(server.store);
    const call = await sendRaw(server.url, { path: '/api/v1/workspace', headers: { origin: OTHER, authorization: `Bearer ${ws.key}` } });
    expect(call.status).toBe(200);
    expect(corsHeadersOf(call.headers)).toEqual([]);
    expect(call.headers.vary).toContain('Origin');
    const refused = await preflight(server, OTHER);
    expect(refused.status).toBe(401);
    expect(corsHeadersOf(refused.headers)).toEqual([]);
  });

  it('when no origin is configured (the default), never sends a CORS header', async () => {
    const ws = await createTestWorkspace(closed.store);
    const call = await sendRaw(closed.url, { path: '/api/v1/workspace', headers: { origin: APP, authorization: `Bearer ${ws.key}` } });
    expect(call.status).toBe(200);
    expect(corsHeadersOf(call.headers)).toEqual([]);
    expect(corsHeadersOf((await preflight(closed, APP)).headers)).toEqual([]);
  });

  it('leaves the administration API alone: no CORS header for an allowed origin there', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await sendRaw(server.url, { path: `/api/workspace/${ws.workspaceId}/webhooks/events`, headers: { origin: APP, authorization: `Bearer ${ws.key}` } });
    expect(res.status).toBe(200);
    expect(corsHeadersOf(res.headers)).toEqual([]);
  });
});
