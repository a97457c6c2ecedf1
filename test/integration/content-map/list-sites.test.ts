import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { minutesFrom, siteLine } from '../../support/content-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { expectStablePaging } from '../../contract/framework/paging.js';

const server = useTestServer();

function list(ws: TestWorkspace, query: Record<string, string | number> = {}) {
  return getWith(server, ws, '/api/v1/content-map/sites', query);
}

describe('GET /api/v1/content-map/sites', () => {
  it('when the workspace has sites, answers 200 with every site oldest first, with its processing progress', async () => {
    const ws = await createTestWorkspace(server.store);
    const [first, second] = minutesFrom('2026-03-01T10:00:00.000Z', 2);
    const sitemap = siteLine({ created_at: second, updated_at: '2026-03-02T08:00:00.000Z' });
    const single = siteLine({
      url: 'https://www.acme.example/pricing',
      kind: 'page',
      url_count: 1,
      last_fetched_at: '2026-03-01T10:30:00.000+01:00',
      processing: { total: 1, ready: 1, failed: 0, completed: true },
      created_at: first,
    });
    await importRecords(server.store, ws, [sitemap, single]);

    const res = await list(ws);

    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        items: [
          {
            id: single.id,
            url: 'https://www.acme.example/pricing',
            type: 'page',
            urlCount: 1,
            lastFetchedAt: '2026-03-01T09:30:00.000Z',
            createdAt: first,
            updatedAt: first,
            processing: { total: 1, ready: 1, failed: 0, completed: true },
          },
          {
            id: sitemap.id,
            url: 'https://www.acme.example/sitemap.xml',
            type: 'sitemap',
            urlCount: 128,
            lastFetchedAt: '2026-03-02T08:00:00.000Z',
            createdAt: second,
            updatedAt: '2026-03-02T08:00:00.000Z',
            processing: { total: 128, ready: 120, failed: 3, completed: false },
          },
        ],
        next_cursor: null,
      },
    }]);
  });

  it('when type is given, answers only the sites of that type', async () => {
    const ws = await createTestWorkspace(server.store);
    const sitemap = siteLine();
    const single = siteLine({ kind: 'page', url_count: 1, processing: { total: 1, ready: 0, failed: 0, completed: false } });
    await importRecords(server.store, ws, [sitemap, single]);

    const res = await list(ws, { type: 'page' });

    expect((res.body as { data: { items: Array<{ id: string }> } }).data.items.map((s) => s.id)).toEqual([single.id]);
  });

  it('when another workspace has sites, never lists them', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    await importRecords(server.store, other, [siteLine()]);

    const res = await list(ws);

    expect([res.status, res.body]).toEqual([200, { code: 2000, messages: 'OK', data: { items: [], next_cursor: null } }]);
  });

  it('when paged with limit 1, 2 and 3, answers every site once in one order and refuses tampered or foreign cursors', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const sites = Array.from({ length: 4 }, () => siteLine());
    await importRecords(server.store, ws, sites);
    await importRecords(server.store, other, [siteLine(), siteLine()]);

    await expectStablePaging({
      call: (spec) => send(server.url, spec, ws.key),
      request: { path: '/api/v1/content-map/sites', query: { type: 'sitemap' } },
      ids: sites.map((s) => s.id),
      foreign: { path: '/api/v1/content-map/sites', query: { type: 'sitemap' }, key: other.key },
    });
  });

  it('when type is neither sitemap nor page, answers 422 naming type', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await list(ws, { type: 'feed' });
    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
    expect((res.body as { messages: string }).messages).toContain('type');
  });
});
