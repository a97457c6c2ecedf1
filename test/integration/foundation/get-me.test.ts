import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX } from '../../../src/keys/api-keys.js';
import { createSecretToken } from '../../../src/keys/secret-token.js';
import { createTestKey, createTestMember, createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { send, type ObservedResponse } from '../../support/http.js';
import { startTestServer, startTestServerForThisTest, useTestServer } from '../../support/test-server.js';

const INVALID = { code: 4022, messages: 'The API key is invalid, revoked or expired.', data: null };

const server = useTestServer();

const me = (headers: Record<string, string>): Promise<ObservedResponse> =>
  send(server.url, { path: '/api/v1/me', headers, key: null });

async function expectedMe(ws: TestWorkspace, key: { id: string; key: string; name: string; scopes: string[] }) {
  const row = (await server.store.apiKeys.get(key.id))!;
  const workspace = (await server.store.accounts.getWorkspace(ws.workspaceId))!;
  const user = (await server.store.accounts.getUser(row.created_by))!;
  return {
    code: 4020,
    messages: 'OK',
    data: {
      key: {
        id: key.id,
        name: key.name,
        prefix: key.key.slice(0, API_KEY_PREFIX.length + 4),
        scopes: key.scopes,
        created_at: row.created_at,
        expires_at: row.expires_at,
        last_used_at: null,
      },
      workspace: { id: workspace.id, name: workspace.name },
      user: { id: user.id, name: user.name, email: user.email },
    },
  };
}

describe('GET /api/v1/me', () => {
  it('when the key comes as Authorization: Bearer, answers 200 (4020) with the key, its workspace and its user', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await me({ authorization: `Bearer ${ws.key}` });
    expect([res.status, res.body]).toEqual([200, await expectedMe(ws, {
      id: ws.keyId, key: ws.key, name: 'Test key',
      scopes: ['workspace:read', 'visibility:read', 'contentmap:read', 'content:read', 'iq:read'],
    })]);
    expect(res.text).not.toContain(ws.key);
  });

  it('when the key comes as X-API-KEY, answers 200 for the same key', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await me({ 'x-api-key': ws.key });
    expect(res.status).toBe(200);
    expect((res.body as { data: { key: { id: string } } }).data.key.id).toBe(ws.keyId);
  });

  it('when the scheme is written in lower case (bearer), answers 200', async () => {
    const ws = await createTestWorkspace(server.store);
    expect((await me({ authorization: `bearer ${ws.key}` })).status).toBe(200);
  });

  it('when the key has no scopes at all, answers 200 with an empty scope list', async () => {
    const ws = await createTestWorkspace(server.store);
    const key = await createTestKey(server.store, ws, { scopes: [], name: 'No scopes' });
    const res = await me({ authorization: `Bearer ${key.key}` });
    expect([res.status, res.body]).toEqual([200, await expectedMe(ws, { ...key, name: 'No scopes', scopes: [] })]);
  });

  it('when the workspace is past due or canceled, still answers 200', async () => {
    for (const status of ['past_due', 'canceled'] as const) {
      const ws = await createTestWorkspace(server.store, { subscription: status });
      expect((await me({ authorization: `Bearer ${ws.key}` })).status).toBe(200);
    }
  });

  it('when no key is sent, answers 401 (4021) naming both headers', async () => {
    const res = await me({});
    expect([res.status, res.body]).toEqual([401, {
      code: 4021,
      messages: 'No API key: send `Authorization: Bearer <key>` or `X-API-KEY: <key>`.',
      data: null,
    }]);
  });

  it('when a header is present but empty, answers 401 (4021)', async () => {
    expect((await me({ 'x-api-key': '' })).body).toMatchObject({ code: 4021 });
    expect((await me({ authorization: 'Bearer ' })).body).toMatchObject({ code: 4021 });
  });

  describe('when the key cannot be used, answers 401 (4022) with one message', () => {
    const cases: Array<[string, (ws: TestWorkspace) => string | Promise<string>]> = [
      ['it is malformed', () => 'wsk_live_short'],
      ['it has another prefix', (ws) => ws.key.replace('wsk_live_', 'wsk_test_')],
      ['its checksum is wrong', (ws) => `${ws.key.slice(0, -1)}${ws.key.endsWith('A') ? 'B' : 'A'}`],
      ['nobody issued it', () => createSecretToken(API_KEY_PREFIX)],
      ['it was revoked', async (ws) => {
        await server.store.apiKeys.revoke(ws.keyId, new Date().toISOString());
        return ws.key;
      }],
      ['its creator is no longer a member of the workspace', async (ws) => {
        await server.store.accounts.deleteMembership(ws.workspaceId, ws.ownerId);
        return ws.key;
      }],
      ['it was created by a member later removed while another owner stays', async (ws) => {
        const second = await createTestMember(server.store, ws, 'owner');
        const key = await createTestKey(server.store, ws, { userId: second });
        await server.store.accounts.deleteMembership(ws.workspaceId, second);
        return key.key;
      }],
    ];
    for (const [why, keyFor] of cases) {
      it(`when ${why}`, async () => {
        const ws = await createTestWorkspace(server.store);
        const key = await keyFor(ws);
        for (const headers of [{ authorization: `Bearer ${key}` }, { 'x-api-key': key }] as Array<Record<string, string>>) {
          const res = await me(headers);
          expect([res.status, res.body]).toEqual([401, INVALID]);
        }
      });
    }

    it('when the Authorization scheme is Basic, naming the Bearer scheme', async () => {
      const ws = await createTestWorkspace(server.store);
      const res = await me({ authorization: `Basic ${Buffer.from(`${ws.key}:`).toString('base64')}` });
      expect([res.status, res.body]).toEqual([401, {
        code: 4022,
        messages: '`Authorization` takes only the Bearer scheme (RFC 6750): send `Authorization: Bearer <credential>`, '
          + 'or the credential alone in `X-API-KEY`.',
        data: null,
      }]);
    });
  });

  it('when the key is revoked between two requests, the second answers 401 (4022)', async () => {
    const ws = await createTestWorkspace(server.store);
    expect((await me({ authorization: `Bearer ${ws.key}` })).status).toBe(200);
    await server.store.apiKeys.revoke(ws.keyId, new Date().toISOString());
    const res = await me({ authorization: `Bearer ${ws.key}` });
    expect([res.status, res.body]).toEqual([401, INVALID]);
  });

  it('when the creator leaves between two requests, the second answers 401 (4022)', async () => {
    const ws = await createTestWorkspace(server.store);
    expect((await me({ 'x-api-key': ws.key })).status).toBe(200);
    await server.store.accounts.deleteMembership(ws.workspaceId, ws.ownerId);
    expect((await me({ 'x-api-key': ws.key })).body).toEqual(INVALID);
  });

  it('answers 429 (4290) with the client policy once an address has failed too often, and no workspace is charged', async () => {
    const own = await startTestServerForThisTest({ rateLimit: { quota: 120, windowSeconds: 60, authFailureQuota: 3 } });
    const ws = await createTestWorkspace(own.store);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await send(own.url, { path: '/api/v1/me', key: createSecretToken(API_KEY_PREFIX) })).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    const limited = await send(own.url, { path: '/api/v1/me', key: 'wsk_live_guess' });
    expect([limited.status, limited.body]).toEqual([429, { code: 4290, messages: expect.stringContaining('failed authentications'), data: null }]);
    expect(limited.headers.get('ratelimit-policy')).toBe('"client";q=3;w=60');
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // A valid key from the same address is still served: the limit counts failures only.
    const ok = await send(own.url, { path: '/api/v1/me', key: ws.key });
    expect([ok.status, ok.headers.get('ratelimit')]).toEqual([200, expect.stringMatching(/^"workspace";r=119;t=\d+$/)]);
  });
});

describe('GET /api/v1/me with a controllable clock', () => {
  let clock = new Date();
  const timed = useTestServer({ now: () => clock });

  it('when the key has expired, answers 401 (4022), and answers 200 just before', async () => {
    const ws = await createTestWorkspace(timed.store);
    const expiresAt = new Date(clock.getTime() + 60 * 60_000);
    const key = await createTestKey(timed.store, ws, { expiresAt });
    clock = new Date(expiresAt.getTime() - 1);
    expect((await send(timed.url, { path: '/api/v1/me', key: key.key })).status).toBe(200);
    clock = new Date(expiresAt.getTime());
    const res = await send(timed.url, { path: '/api/v1/me', key: key.key });
    expect([res.status, res.body]).toEqual([401, INVALID]);
  });

  it('writes last_used_at at most once a minute per key', async () => {
    const ws = await createTestWorkspace(timed.store);
    const start = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000);
    const at = (offsetMs: number) => new Date(start.getTime() + offsetMs);
    // The use is written after the answer, never waited for; `finish` writes what is still pending.
    const lastUsed = async () => {
      await timed.writers.keyUses.finish();
      return (await timed.store.apiKeys.get(ws.keyId))!.last_used_at;
    };
    const call = async (offsetMs: number) => {
      clock = at(offsetMs);
      expect((await send(timed.url, { path: '/api/v1/me', key: ws.key })).status).toBe(200);
    };

    expect(await lastUsed()).toBeNull();
    await call(0);
    expect(await lastUsed()).toBe(at(0).toISOString());
    await call(30_000);
    await call(59_999);
    expect(await lastUsed()).toBe(at(0).toISOString());
    await call(60_000);
    expect(await lastUsed()).toBe(at(60_000).toISOString());
    await call(90_000);
    expect(await lastUsed()).toBe(at(60_000).toISOString());
    // /me shows the use recorded before this request.
    clock = at(200_000);
    const res = await send(timed.url, { path: '/api/v1/me', key: ws.key });
    expect((res.body as { data: { key: { last_used_at: string } } }).data.key.last_used_at).toBe(at(60_000).toISOString());
    expect(await lastUsed()).toBe(at(200_000).toISOString());
  });
});

describe('GET /api/v1/me without a usable database', () => {
  it('refuses a malformed or wrong-checksum key before any database read', async () => {
    const own = await startTestServer();
    const ws = await createTestWorkspace(own.store);
    try {
      await own.store.close();
      // Any read now throws, which would surface as a 500: a 401 proves none happened.
      for (const key of ['wsk_live_short', `${ws.key.slice(0, -1)}${ws.key.endsWith('A') ? 'B' : 'A'}`]) {
        const res = await send(own.url, { path: '/api/v1/me', key });
        expect([res.status, res.body]).toEqual([401, INVALID]);
      }
      expect((await send(own.url, { path: '/api/v1/me', key: ws.key })).status).toBe(500);
    } finally {
      await own.close();
    }
  });
});
