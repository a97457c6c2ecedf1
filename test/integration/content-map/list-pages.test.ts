import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { minutesFrom, pageLine, siteLine, topicLine } from '../../support/content-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { expectStablePaging } from '../../contract/framework/paging.js';

const server = useTestServer();

function list(ws: TestWorkspace, query: Record<string, string | number> = {}) {
  return getWith(server, ws, '/api/v1/content-map/pages', query);
}

async function ids(ws: TestWorkspace, query: Record<string, string | number>): Promise<string[]> {
  const res = await list(ws, { limit: 100, ...query });
  expect(res.status).toBe(200);
  return (res.body as { data: { items: Array<{ id: string }> } }).data.items.map((p) => p.id);
}

/** Two sites, two topics and four pages spread over them, created in this order. */
async function contentMap(ws: TestWorkspace) {
  const blog = siteLine({ url: 'https://www.acme.example/blog/sitemap.xml' });
  const docs = siteLine({ url: 'https://docs.acme.example/sitemap.xml' });
  const visibility = topicLine({ name: 'AI search visibility' });
  const pricing = topicLine({ name: 'Pricing' });
  const times = minutesFrom('2026-03-01T10:00:00.000Z', 4);
  const pages = [
    pageLine({ site_id: blog.id, topic_id: visibility.id, url: 'https://www.acme.example/blog/a', status: 'READY', created_at: times[0] }),
    pageLine({ site_id: blog.id, topic_id: pricing.id, url: 'https://www.acme.example/blog/b', status: 'FAILED', created_at: times[1] }),
    pageLine({ site_id: docs.id, topic_id: visibility.id, url: 'https://docs.acme.example/c', status: 'READY', created_at: times[2] }),
    pageLine({ site_id: docs.id, url: 'https://docs.acme.example/d', status: 'PROCESSING', title: null, last_fetched_at: null, created_at: times[3] }),
  ];
  // Pages first: references to sites and topics defined later in the file are allowed.
  await importRecords(server.store, ws, [...pages, blog, docs, visibility, pricing]);
  return { blog, docs, visibility, pricing, pages };
}

describe('GET /api/v1/content-map/pages', () => {
  it('when the workspace has pages, answers 200 with every page oldest first', async () => {
    const ws = await createTestWorkspace(server.store);
    const { blog, docs, visibility, pages } = await contentMap(ws);

    const res = await list(ws, { limit: 2 });

    const body = res.body as { data: { next_cursor: string | null } };
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        items: [
          {
            id: pages[0]!.id,
            url: 'https://www.acme.example/blog/a',
            title: 'The complete guide to AI search visibility',
            site_id: blog.id,
            topic_id: visibility.id,
            status: 'READY',
            last_fetched_at: '2026-03-02T08:05:00.000Z',
            created_at: '2026-03-01T10:00:00.000Z',
            updated_at: '2026-03-01T10:00:00.000Z',
          },
          expect.objectContaining({ id: pages[1]!.id }),
        ],
        next_cursor: expect.any(String),
      },
    }]);
    const next = await list(ws, { limit: 2, cursor: body.data.next_cursor! });
    expect(next.body).toEqual({
      code: 2000,
      messages: 'OK',
      data: {
        items: [
          expect.objectContaining({ id: pages[2]!.id }),
          {
            id: pages[3]!.id,
            url: 'https://docs.acme.example/d',
            title: null,
            site_id: docs.id,
            topic_id: null,
            status: 'PROCESSING',
            last_fetched_at: null,
            created_at: '2026-03-01T10:03:00.000Z',
            updated_at: '2026-03-01T10:03:00.000Z',
          },
        ],
        next_cursor: null,
      },
    });
  });

  it('when site, topic and status are given, answers the pages matching all of them', async () => {
    const ws = await createTestWorkspace(server.store);
    const { blog, docs, visibility, pricing, pages } = await contentMap(ws);

    expect(await ids(ws, { site: blog.id })).toEqual([pages[0]!.id, pages[1]!.id]);
    expect(await ids(ws, { topic: visibility.id })).toEqual([pages[0]!.id, pages[2]!.id]);
    expect(await ids(ws, { status: 'READY' })).toEqual([pages[0]!.id, pages[2]!.id]);
    expect(await ids(ws, { site: docs.id, topic: visibility.id, status: 'READY' })).toEqual([pages[2]!.id]);
    expect(await ids(ws, { site: docs.id, topic: pricing.id })).toEqual([]);
  });

  it('when the site filter names a site of another workspace, answers an empty page', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    await contentMap(ws);
    const { blog } = await contentMap(other);

    expect(await ids(ws, { site: blog.id })).toEqual([]);
  });

  it('when paged with limit 1, 2 and 3, answers every page once in one order and refuses tampered or foreign cursors', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const { pages } = await contentMap(ws);
    await contentMap(other);

    await expectStablePaging({
      call: (spec) => send(server.url, spec, ws.key),
      request: { path: '/api/v1/content-map/pages' },
      ids: pages.map((p) => p.id),
      foreign: { path: '/api/v1/content-map/pages', key: other.key },
    });
  });

  it('when site is not a UUID, answers 422 naming site', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await list(ws, { site: 'blog' });
    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
    expect((res.body as { messages: string }).messages).toContain('site');
  });
});
