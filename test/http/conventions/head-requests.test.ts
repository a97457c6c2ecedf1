import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { createTestMemberToken } from '../../support/admin.js';
import { parseRateLimit, send, sendRaw, type ObservedResponse } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { NOW, seedManyAnswers } from './fixture.js';

const server = useTestServer({ now: () => NOW });

type Paths = Record<string, Record<string, unknown>>;
const paths = (loadOpenApiDocument() as { paths: Paths }).paths;
// The last contract that listed a HEAD operation beside every GET: what `Allow` said then.
const paths120 = (JSON.parse(readFileSync(new URL('../../../contract/superseded/openapi-1.2.0.json', import.meta.url), 'utf8')) as { paths: Paths }).paths;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A concrete address of a contract path: the workspace's own id, any well-formed UUID for the rest. */
const concrete = (path: string, ws: TestWorkspace): string =>
  path.replace('{workspace_id}', ws.workspaceId).replace(/\{[^}]+\}/g, '0b7c2f4e-8a51-4d6e-9c3a-5f1e2d3c4b5a');

// Headers two requests never share; and, where the request itself changes the answer (the usage,
// the read API's and the administration API's daily one, counts it; `/me` shows the key's last
// use), the ones the body's bytes decide.
const PER_REQUEST = ['date', 'x-request-id', 'ratelimit', 'retry-after', 'connection', 'keep-alive', 'transfer-encoding'];
const changedByTheRequest = (path: string): boolean => path === '/api/v1/me' || /\/usage(\/|$)/.test(path);
const comparable = (path: string, res: ObservedResponse): Record<string, string> => {
  const skip = new Set([...PER_REQUEST, ...(changedByTheRequest(path) ? ['etag', 'content-length'] : [])]);
  return Object.fromEntries([...res.headers].filter(([name]) => !skip.has(name)));
};

const usedRequests = async (ws: TestWorkspace): Promise<number> =>
  ((await send(server.url, { path: '/api/v1/workspace/usage' }, ws.key)).body as { data: { api_requests_served: number } }).data.api_requests_served;

describe('HEAD', () => {
  it('answers for every GET of the contract, which lists no HEAD operation, with the GET\'s status and headers and no body', async () => {
    const ws = await createTestWorkspace(server.store);
    const { token } = await createTestMemberToken(server.store, ws);
    const gets = Object.keys(paths).filter((path) => paths[path]!.get !== undefined);
    expect(Object.values(paths).filter((item) => item.head !== undefined)).toEqual([]);
    const answered: string[] = [];
    for (const path of gets) {
      const spec = { path: concrete(path, ws) };
      const credential = path.startsWith('/api/workspace/') ? token : ws.key;
      const get = await send(server.url, spec, credential);
      const head = await send(server.url, { ...spec, method: 'HEAD' }, credential);
      expect([path, head.status, head.text, comparable(path, head)], `HEAD ${path}`).toEqual([path, get.status, '', comparable(path, get)]);
      answered.push(`${get.status}`);
    }
    // Reads that answer the data, not only refusals: every list and the workspace's own records.
    expect(answered.filter((status) => status === '200').length).toBeGreaterThan(gets.length / 2);
  });

  it('keeps Allow as the 1.2.0 contract, which listed HEAD operations, said it: HEAD wherever GET is', async () => {
    const ws = await createTestWorkspace(server.store);
    const { token } = await createTestMemberToken(server.store, ws);
    for (const path of Object.keys(paths)) {
      const credential = path.startsWith('/api/workspace/') ? token : ws.key;
      const res = await send(server.url, { method: 'PUT', path: concrete(path, ws), body: {} }, credential);
      const before = paths120[path] ?? { ...paths[path], ...(paths[path]!.get ? { head: {} } : {}) };
      const allow = METHODS.filter((m) => before[m] !== undefined).map((m) => m.toUpperCase()).join(', ');
      expect([path, res.status, res.headers.get('allow')]).toEqual([path, 405, allow]);
      expect(allow.includes('GET')).toBe(allow.includes('HEAD'));
    }
  });

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
