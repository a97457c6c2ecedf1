import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createTestKey, createTestWorkspace } from '../../support/accounts.js';
import { createTestMemberToken } from '../../support/admin.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';

const SEND_ONE = {
  code: 4022,
  messages: 'Two different credentials were sent (in `Authorization` and `X-API-KEY`, or in one header twice): '
    + 'send one, as `Authorization: Bearer <credential>` or `X-API-KEY: <credential>`.',
  data: null,
};
const BEARER_ONLY = {
  code: 4022,
  messages: '`Authorization` takes only the Bearer scheme (RFC 6750): send `Authorization: Bearer <credential>`, '
    + 'or the credential alone in `X-API-KEY`.',
  data: null,
};

const server = useTestServer();

const call = (path: string, headers: Record<string, string>) => send(server.url, { path, key: null, headers });

/** A request with a header sent more than once (fetch would join the values into one line). */
function rawGet(path: string, headers: Record<string, string | string[]>): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('credential headers of the read API', () => {
  it('when X-API-KEY and Authorization carry different keys, answers 401 (4022) asking for one, and charges no workspace', async () => {
    const a = await createTestWorkspace(server.store);
    const b = await createTestWorkspace(server.store);
    const secondOfA = await createTestKey(server.store, a);
    for (const other of [b.key, secondOfA.key, 'wsk_live_not-a-key']) {
      for (const headers of [{ 'x-api-key': a.key, authorization: `Bearer ${other}` }, { 'x-api-key': other, authorization: `Bearer ${a.key}` }]) {
        const res = await call('/api/v1/me', headers);
        expect([res.status, res.body]).toEqual([401, SEND_ONE]);
        expect(res.headers.get('ratelimit')).toBeNull();
      }
    }
  });

  it('when one header is sent twice with different keys, answers 401 (4022) asking for one', async () => {
    const a = await createTestWorkspace(server.store);
    const b = await createTestWorkspace(server.store);
    expect(await rawGet('/api/v1/me', { 'x-api-key': [a.key, b.key] })).toEqual({ status: 401, body: SEND_ONE });
    expect(await rawGet('/api/v1/me', { authorization: [`Bearer ${a.key}`, `Bearer ${b.key}`] })).toEqual({ status: 401, body: SEND_ONE });
  });

  it('when both headers carry the same key, answers as that key', async () => {
    const a = await createTestWorkspace(server.store);
    const res = await call('/api/v1/me', { 'x-api-key': a.key, authorization: `Bearer ${a.key}` });
    expect([res.status, (res.body as { data: { workspace: { id: string } } }).data.workspace.id]).toEqual([200, a.workspaceId]);
  });

  it('when Authorization carries a bare key or another scheme, answers 401 (4022) naming the Bearer scheme', async () => {
    const a = await createTestWorkspace(server.store);
    for (const authorization of [a.key, `Token ${a.key}`, `Basic ${Buffer.from(`${a.key}:`).toString('base64')}`, `Bearer:${a.key}`, `Bearer${a.key}`]) {
      const res = await call('/api/v1/me', { authorization });
      expect([res.status, res.body], authorization.slice(0, 12)).toEqual([401, BEARER_ONLY]);
    }
    // Even beside a good X-API-KEY: the request is ambiguous either way.
    const res = await call('/api/v1/me', { authorization: a.key, 'x-api-key': a.key });
    expect([res.status, res.body]).toEqual([401, BEARER_ONLY]);
  });

  it('takes the scheme name Bearer in any letter case', async () => {
    const a = await createTestWorkspace(server.store);
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      expect((await call('/api/v1/me', { authorization: `${scheme} ${a.key}` })).status, scheme).toBe(200);
    }
  });
});

describe('credential headers of the administration API', () => {
  it('when X-API-KEY and Authorization carry different member tokens, answers 401 (4022) asking for one', async () => {
    const a = await createTestWorkspace(server.store);
    const mine = (await createTestMemberToken(server.store, a)).token;
    const another = (await createTestMemberToken(server.store, await createTestWorkspace(server.store))).token;
    const res = await call(`/api/workspace/${a.workspaceId}/members`, { 'x-api-key': mine, authorization: `Bearer ${another}` });
    expect([res.status, res.body]).toEqual([401, SEND_ONE]);
    const reversed = await call(`/api/workspace/${a.workspaceId}/members`, { 'x-api-key': another, authorization: `Bearer ${mine}` });
    expect([reversed.status, reversed.body]).toEqual([401, SEND_ONE]);
  });

  it('when Authorization carries a bare member token, answers 401 (4022); `bearer` in any case works', async () => {
    const a = await createTestWorkspace(server.store);
    const { token } = await createTestMemberToken(server.store, a);
    const bare = await call(`/api/workspace/${a.workspaceId}/members`, { authorization: token });
    expect([bare.status, bare.body]).toEqual([401, BEARER_ONLY]);
    expect((await call(`/api/workspace/${a.workspaceId}/members`, { authorization: `BEARER ${token}` })).status).toBe(200);
  });
});
