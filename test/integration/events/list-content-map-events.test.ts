import { describe, expect, it } from 'vitest';
import { createTestKey, createTestWorkspace } from '../../support/accounts.js';
import { articleLine, changed, siteLine, topicLine } from '../../support/content-records.js';
import { expectInvalidQuery, expectScopeMissing, FEED_PATHS, readFeed } from '../../support/event-feeds.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { importRecords } from '../../support/visibility.js';

const PATH = FEED_PATHS['content-map'];

const server = useTestServer();

describe('GET /api/v1/content-map/events', () => {
  it('lists topic and sitemap URL events, oldest first, as the API shows the records; content events stay in their own feed', async () => {
    const ws = await createTestWorkspace(server.store);
    const topic = topicLine({ stage: 'PROCESSING' });
    const site = siteLine({ processing: { total: 10, ready: 4, failed: 0, completed: false } });
    const article = articleLine({ status: 'GENERATED' });
    await importRecords(server.store, ws, [topic, site, article], { events: false }); // a backfill: no event
    await importRecords(server.store, ws, [changed(topic, { stage: 'READY' }), changed(article, { status: 'PUBLISHED' })]);
    await importRecords(server.store, ws, [changed(site, { processing: { total: 10, ready: 9, failed: 1, completed: true } })]);

    const page = await readFeed(server.url, ws.key, PATH);

    const get = async (path: string) => ((await send(server.url, { path }, ws.key)).body as { data: unknown }).data;
    expect(page.items.map((e) => [e.event, e.data])).toEqual([
      ['topic.status_updated', await get(`/api/v1/content-map/topics/${topic.id}`)],
      ['sitemap_url.status_updated', await get(`/api/v1/content-map/sites/${site.id}`)],
    ]);
    expect(page.items[1]!.data).toMatchObject({ processing: { total: 10, ready: 9, failed: 1, completed: true } });
    expect(page.has_more).toBe(false);

    const sites = await readFeed(server.url, ws.key, PATH, { event_type: 'sitemap_url.status_updated' });
    expect(sites.items.map((e) => e.data.id)).toEqual([site.id]);
    expect((await readFeed(server.url, ws.key, FEED_PATHS.content)).items.map((e) => e.data.id)).toEqual([article.id]);
  });

  it('needs contentmap:read, and a key holding only it is enough', async () => {
    const ws = await createTestWorkspace(server.store);
    const topic = topicLine({ stage: 'PROCESSING' });
    await importRecords(server.store, ws, [topic], { events: false });
    await importRecords(server.store, ws, [changed(topic, { stage: 'READY' })]);
    const reader = await createTestKey(server.store, ws, { scopes: ['contentmap:read'] });
    expect((await readFeed(server.url, reader.key, PATH)).items.map((e) => e.data.id)).toEqual([topic.id]);
    const contentOnly = await createTestKey(server.store, ws, { scopes: ['content:read'] });
    expectScopeMissing(await send(server.url, { path: PATH }, contentOnly.key), 'contentmap:read');
  });

  it('when event_type is not one of the feed\'s, answers 422 naming it', async () => {
    const ws = await createTestWorkspace(server.store);
    expectInvalidQuery(await send(server.url, { path: PATH, query: { event_type: 'content.status_updated' } }, ws.key), 'event_type');
  });
});
