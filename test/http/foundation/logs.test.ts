import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX } from '../../../src/keys/api-keys.js';
import { createSecretToken } from '../../../src/keys/secret-token.js';
import { createTestKey, createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';

const server = useTestServer();

describe('the request log', () => {
  it('never contains a key or its secret part, wherever the client put it and whether or not it worked', async () => {
    const ws = await createTestWorkspace(server.store);
    const scoped = await createTestKey(server.store, ws, { scopes: [] });
    const revoked = await createTestKey(server.store, ws);
    await server.store.apiKeys.revoke(revoked.id, new Date().toISOString());
    const unknown = createSecretToken(API_KEY_PREFIX);
    const wrongChecksum = `${ws.key.slice(0, -1)}${ws.key.endsWith('A') ? 'B' : 'A'}`;
    const keys = [ws.key, scoped.key, revoked.key, unknown, wrongChecksum];

    const statuses = [
      (await send(server.url, { path: '/api/v1/me', key: ws.key })).status,
      (await send(server.url, { path: '/api/v1/me', key: null, headers: { 'x-api-key': scoped.key } })).status,
      (await send(server.url, { path: '/api/v1/workspace', key: scoped.key })).status,
      (await send(server.url, { path: '/api/v1/me', key: revoked.key })).status,
      (await send(server.url, { path: '/api/v1/me', key: null, headers: { 'x-api-key': unknown } })).status,
      (await send(server.url, { path: '/api/v1/me', key: wrongChecksum })).status,
      // A key pasted into the URL: as a query parameter (422) and as a path segment (404).
      (await send(server.url, { path: '/api/v1/me', key: ws.key, query: { api_key: ws.key } })).status,
      (await send(server.url, { path: '/api/v1/me', key: null, query: { key: scoped.key } })).status,
      (await send(server.url, { path: `/api/v1/${ws.key}`, key: ws.key })).status,
      // A key sent as the request id would otherwise be echoed and logged as the id.
      (await send(server.url, { path: '/api/v1/me', key: ws.key, headers: { 'x-request-id': ws.key } })).status,
      (await send(server.url, { path: '/api/v1/me', key: null, headers: { authorization: `Basic ${ws.key}` } })).status,
    ];
    expect(statuses).toEqual([200, 200, 403, 401, 401, 401, 422, 401, 404, 200, 401]);

    const lines = server.logLines();
    expect(lines.length).toBeGreaterThanOrEqual(statuses.length);
    for (const key of keys) {
      const secret = key.slice(API_KEY_PREFIX.length);
      const leaking = lines.filter((line) => line.includes(key) || line.includes(secret));
      expect(leaking, `a log line carries ${key.slice(0, 13)}…`).toEqual([]);
    }
  });

  it('does not echo a key sent as X-Request-Id: the response gets a fresh id instead', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await send(server.url, { path: '/api/v1/me', key: ws.key, headers: { 'x-request-id': ws.key } });
    expect(res.headers.get('x-request-id')).not.toContain(ws.key.slice(API_KEY_PREFIX.length));
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
