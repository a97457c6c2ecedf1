import { describe, expect, it } from 'vitest';
import { ALL_SCOPES, type Scope } from '../../../src/keys/scopes.js';
import { createTestKey, createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';

const server = useTestServer();

describe('GET /api/v1/workspace', () => {
  it('when the key has workspace:read, answers 200 with the workspace', async () => {
    const ws = await createTestWorkspace(server.store, { name: 'Acme Analytics' });
    const row = (await server.store.accounts.getWorkspace(ws.workspaceId))!;
    const res = await send(server.url, { path: '/api/v1/workspace', key: ws.key });
    expect(res.status).toBe(200);
    // Fields other areas add to the workspace are pinned by the contract tests; these are the account's.
    expect(res.body).toMatchObject({
      code: 2000,
      messages: 'OK',
      data: { id: ws.workspaceId, name: 'Acme Analytics', created_at: row.created_at, subscription_status: 'active' },
    });
  });

  it('when the key lacks workspace:read, answers 403 (4023) with the exact required and missing lists', async () => {
    const ws = await createTestWorkspace(server.store);
    const others = ALL_SCOPES.filter((s) => s !== 'workspace:read');
    for (const scopes of [[], ['visibility:read'], others] as Scope[][]) {
      const key = await createTestKey(server.store, ws, { scopes });
      const res = await send(server.url, { path: '/api/v1/workspace', key: key.key });
      expect([res.status, res.body]).toEqual([403, {
        code: 4023,
        messages: 'The API key lacks the scope required for this request: workspace:read.',
        data: { required: ['workspace:read'], missing: ['workspace:read'] },
      }]);
    }
  });

  it('when the key has only workspace:read, answers 200', async () => {
    const ws = await createTestWorkspace(server.store);
    const key = await createTestKey(server.store, ws, { scopes: ['workspace:read'] });
    expect((await send(server.url, { path: '/api/v1/workspace', key: key.key })).status).toBe(200);
  });

  it('when the workspace is past due, canceled or has no plan, still answers 200 with that status', async () => {
    for (const status of ['past_due', 'canceled', 'none'] as const) {
      const ws = await createTestWorkspace(server.store, { subscription: status });
      const res = await send(server.url, { path: '/api/v1/workspace', key: ws.key });
      expect([res.status, (res.body as { data: { subscription_status: string } }).data.subscription_status]).toEqual([200, status]);
    }
  });

  it('when a scope is missing and the workspace is past due, answers 403 first (scope before subscription)', async () => {
    const ws = await createTestWorkspace(server.store, { subscription: 'past_due' });
    const key = await createTestKey(server.store, ws, { scopes: [] });
    expect((await send(server.url, { path: '/api/v1/workspace', key: key.key })).status).toBe(403);
  });
});
