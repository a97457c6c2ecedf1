import { describe, expect, it } from 'vitest';
import { importLines } from '../../../src/import/import-ndjson.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { profileLine } from '../../support/workspace-records.js';

const server = useTestServer();

const workspace = (key: string) => send(server.url, { path: '/api/v1/workspace' }, key);

describe('GET /api/v1/workspace', () => {
  it('when the profile is on record, answers 200 with the brand name and its domains', async () => {
    const ws = await createTestWorkspace(server.store, { name: 'Acme Analytics' });
    await importLines(server.store, ws.workspaceId, [profileLine({ brand_name: 'Acme', domains: ['WWW.Acme.Example', 'blog.acme.example'] }).line]);
    const row = (await server.store.accounts.getWorkspace(ws.workspaceId))!;
    const res = await workspace(ws.key);
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        id: ws.workspaceId,
        name: 'Acme Analytics',
        created_at: row.created_at,
        subscription_status: 'active',
        brand_name: 'Acme',
        domains: ['acme.example', 'blog.acme.example'],
      },
    }]);
  });

  it('when no profile is on record, answers a null brand name and no domains', async () => {
    const ws = await createTestWorkspace(server.store, { name: 'Bare' });
    const row = (await server.store.accounts.getWorkspace(ws.workspaceId))!;
    const res = await workspace(ws.key);
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: { id: ws.workspaceId, name: 'Bare', created_at: row.created_at, subscription_status: 'active', brand_name: null, domains: [] },
    }]);
  });

  it('when another workspace has a profile, answers only its own', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    await importLines(server.store, other.workspaceId, [profileLine({ brand_name: 'Other' }).line]);
    const res = await workspace(ws.key);
    expect((res.body as { data: { brand_name: unknown; domains: unknown } }).data).toMatchObject({ brand_name: null, domains: [] });
  });
});
