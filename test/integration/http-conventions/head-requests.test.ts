import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { createTestMemberToken } from '../../support/admin.js';
import { parseRateLimit, send, sendRaw } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { NOW, seedManyAnswers } from './fixture.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: () => NOW });
});
afterAll(async () => {
  await server.close();
});

const usedRequests = async (ws: TestWorkspace): Promise<number> =>
  ((await send(server.url, { path: '/api/v1/workspace/usage' }, ws.key)).body as { data: { api_requests_served: number } }).data.api_requests_served;

describe('HEAD', () => {
  it('is counted like a GET: against the rate limit and in the usage', async () => {
    const ws = await createTestWorkspace(server.store);
    const before = await usedRequests(ws);
    const first = await send(server.url, { method: 'HEAD', path: '/api/v1/me' }, ws.key);
    const second = await send(server.url, { method: 'HEAD', path: '/api/v1/visibility/prompts' }, ws.key);
    expect([first.status, first.text, second.status, second.text]).toEqual([200, '', 200, '']);
    expect(parseRateLimit(second.headers.get('ratelimit')).r).toBe(parseRateLimit(first.headers.get('ratelimit')).r - 1);
    // The two HEADs, then the usage read itself.
    expect(await usedRequests(ws)).toBe(before + 3);
  });

  it('when a download is asked for, answers the GET\'s headers (name, type, encoding, tag) without reading out the file', async () => {
    const ws = await createTestWorkspace(server.store);
    await seedManyAnswers(server, ws, 200);
    const path = '/api/v1/visibility/exports/answers?range=7d&format=csv';
    const headers = { authorization: `Bearer ${ws.key}`, 'accept-encoding': 'gzip' };
    const get = await sendRaw(server.url, { path, headers });
    const head = await sendRaw(server.url, { method: 'HEAD', path, headers });
    expect([head.status, head.body.length]).toEqual([200, 0]);
    for (const name of ['content-type', 'content-disposition', 'content-encoding', 'etag', 'cache-control', 'vary']) {
      expect([name, head.headers[name]]).toEqual([name, get.headers[name]]);
    }
    expect(get.headers['content-disposition']).toBe('attachment; filename="answers-7d-2026-11-22.csv"');
    const notModified = await sendRaw(server.url, { method: 'HEAD', path, headers: { ...headers, 'if-none-match': String(get.headers.etag) } });
    expect([notModified.status, notModified.body.length]).toEqual([304, 0]);
  });

  it('when the method is not allowed on a read path, the 405 says Allow: GET, HEAD', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await send(server.url, { method: 'POST', path: '/api/v1/visibility/prompts' }, ws.key);
    expect([res.status, res.headers.get('allow'), res.body]).toEqual([405, 'GET, HEAD', {
      code: 4050,
      messages: 'Method POST is not allowed on this path; allowed: GET, HEAD.',
      data: null,
    }]);
  });

  it('when the path has no GET, answers 405 like any other method, without a body', async () => {
    const ws = await createTestWorkspace(server.store);
    const { token } = await createTestMemberToken(server.store, ws);
    const res = await send(server.url, { method: 'HEAD', path: `/api/workspace/${ws.workspaceId}/webhooks/${ws.keyId}/enable` }, token);
    expect([res.status, res.headers.get('allow'), res.text]).toEqual([405, 'POST', '']);
  });

  it('when the route does not exist or the key is missing, answers the GET\'s status without a body', async () => {
    const ws = await createTestWorkspace(server.store);
    const missing = await send(server.url, { method: 'HEAD', path: '/api/v1/nothing-here' }, ws.key);
    const unauthenticated = await send(server.url, { method: 'HEAD', path: '/api/v1/me' });
    expect([missing.status, missing.text, unauthenticated.status, unauthenticated.text]).toEqual([404, '', 401, '']);
  });
});
