import { describe, expect, it } from 'vitest';
import { createTestKey, createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { agentTaskLine, articleLine, changed, researchBatchLine, topicLine } from '../../support/content-records.js';
import { catchUp, expectInvalidQuery, expectScopeMissing, FEED_PATHS, readFeed, type FeedEvent } from '../../support/event-feeds.js';
import { send } from '../../support/http.js';
import { startTestServerForThisTest, useTestServer } from '../../support/test-server.js';
import { importRecords } from '../../support/visibility.js';
import { createTestWebhook } from '../../support/webhooks.js';
import { valuesOf } from '../../support/database-rows.js';

const PATH = FEED_PATHS.content;

const server = useTestServer();

/**
 * A topic, research batch, agent task and article (a backfill: no event), then one import that
 * completes the batch, runs the task, publishes the article and completes the topic: three
 * content events and one content-map event, in that order.
 */
async function seed(ws: TestWorkspace) {
  const topic = topicLine({ stage: 'READY' });
  const batch = researchBatchLine({ topic_id: topic.id, status: 'PROCESSING' });
  const task = agentTaskLine({ status: 'QUEUED' });
  const article = articleLine({ topic_id: topic.id, topic: undefined, status: 'GENERATED' });
  await importRecords(server.store, ws, [topic, batch, task, article], { events: false });
  const before = new Date().toISOString();
  await importRecords(server.store, ws, [
    changed(batch, { status: 'COMPLETED' }),
    changed(task, { status: 'RUNNING' }),
    changed(article, { status: 'PUBLISHED', published_on: '2026-03-05T09:00:00.000Z' }),
    changed(topic, { stage: 'COMPLETED' }),
  ]);
  return { topic, batch, task, article, before, after: new Date().toISOString() };
}

/** The read API's own answer for a record, which an event's `data` must equal. */
async function read(ws: TestWorkspace, path: string): Promise<unknown> {
  return ((await send(server.url, { path }, ws.key)).body as { data: unknown }).data;
}

describe('GET /api/v1/content/events', () => {
  it('lists the content events the workspace emitted, oldest first, each the envelope a webhook delivers with the record as the API shows it', async () => {
    const ws = await createTestWorkspace(server.store);
    const s = await seed(ws);

    const page = await readFeed(server.url, ws.key, PATH);

    // The workspace has no webhook: the events are listed all the same.
    expect(page.items.map((e) => [e.event, e.data.id])).toEqual([
      ['research_batch.status_updated', s.batch.id],
      ['agent_task.status_updated', s.task.id],
      ['content.status_updated', s.article.id],
    ]);
    expect(page.items[0]!.data).toMatchObject({ id: s.batch.id, status: 'COMPLETED', topic_id: s.topic.id });
    expect(page.items[1]!.data).toMatchObject({ id: s.task.id, status: 'RUNNING' });
    expect(page.items[2]!.data).toEqual(await read(ws, `/api/v1/content/articles/${s.article.id}`));
    expect(page.items[2]!.data).toMatchObject({ status: 'PUBLISHED', published_on: '2026-03-05T09:00:00.000Z' });
    for (const event of page.items) {
      expect(event).toEqual({ event: event.event, timestamp: expect.any(String), workspace_id: ws.workspaceId, is_test: false, data: event.data });
      expect(event.timestamp >= s.before && event.timestamp <= s.after).toBe(true);
    }
    expect(page.has_more).toBe(false);
    expect(page.next_cursor).toEqual(expect.any(String));
  });

  it('when a webhook subscribes, lists exactly the envelope the delivery carries', async () => {
    const ws = await createTestWorkspace(server.store);
    const hook = await createTestWebhook(server.store, ws, { url: 'http://127.0.0.1:9/hooks', events: ['content.status_updated'] });
    const s = await seed(ws);

    const [delivered] = await valuesOf<string>(server.store, 'SELECT payload FROM webhook_deliveries WHERE webhook_id = ?', [hook.id]);
    const listed = await readFeed(server.url, ws.key, PATH, { event_type: 'content.status_updated' });

    expect(listed.items).toEqual([JSON.parse(delivered!) as FeedEvent]);
    expect(listed.items[0]!.data.id).toBe(s.article.id);
  });

  it('an event\'s timestamp is the import\'s clock, in the feed and in the delivery alike, for new records and changed ones', async () => {
    const ws = await createTestWorkspace(server.store);
    const hook = await createTestWebhook(server.store, ws, { url: 'http://127.0.0.1:9/hooks', events: ['content.status_updated', 'agent_task.status_updated'] });
    const task = agentTaskLine({ status: 'QUEUED' });
    const article = articleLine({ status: 'GENERATED' });
    await importRecords(server.store, ws, [task, article], { events: false });
    // An hour ago: within the feed's 30 days, and never what the system clock says during the import.
    const at = new Date(Date.now() - 3_600_000).toISOString();
    const added = agentTaskLine({ status: 'RUNNING' });
    await importRecords(server.store, ws, [added, changed(task, { status: 'RUNNING' }), changed(article, { status: 'PUBLISHED' })], { now: () => new Date(at) });

    const listed = await readFeed(server.url, ws.key, PATH);
    expect(listed.items.map((e) => [e.data.id, e.timestamp]).sort()).toEqual([[task.id, at], [article.id, at], [added.id, at]].sort());
    const delivered = await valuesOf<string>(server.store, 'SELECT payload FROM webhook_deliveries WHERE webhook_id = ?', [hook.id]);
    expect(delivered.map((payload) => (JSON.parse(payload) as FeedEvent).timestamp)).toEqual([at, at, at]);
  });

  it('when event_type is given, lists only that type, and a cursor keeps to it', async () => {
    const ws = await createTestWorkspace(server.store);
    const s = await seed(ws);
    const tasks = await readFeed(server.url, ws.key, PATH, { event_type: 'agent_task.status_updated' });
    expect(tasks.items.map((e) => e.data.id)).toEqual([s.task.id]);

    expectInvalidQuery(await send(server.url, { path: PATH, query: { event_type: 'content.status_updated', cursor: tasks.next_cursor } }, ws.key), 'cursor');
  });

  it('pages with limit, promises more with has_more, and from the last cursor lists only what was emitted since', async () => {
    const ws = await createTestWorkspace(server.store);
    const s = await seed(ws);

    const first = await readFeed(server.url, ws.key, PATH, { limit: 2 });
    expect([first.items.map((e) => e.data.id), first.has_more]).toEqual([[s.batch.id, s.task.id], true]);
    const second = await readFeed(server.url, ws.key, PATH, { limit: 2, cursor: first.next_cursor });
    expect([second.items.map((e) => e.data.id), second.has_more]).toEqual([[s.article.id], false]);

    // Nothing new: an empty page whose cursor is the one sent, to keep asking with.
    const idle = await readFeed(server.url, ws.key, PATH, { limit: 2, cursor: second.next_cursor });
    expect(idle).toEqual({ items: [], next_cursor: second.next_cursor, has_more: false });

    await importRecords(server.store, ws, [changed(s.task, { status: 'SUCCEEDED', ended_at: '2026-03-01T10:05:00.000Z' })]);
    const later = await readFeed(server.url, ws.key, PATH, { limit: 2, cursor: idle.next_cursor });
    expect([later.items.map((e) => [e.event, e.data.id, e.data.status]), later.has_more]).toEqual([[['agent_task.status_updated', s.task.id, 'SUCCEEDED']], false]);
  });

  it('with a key holding only content:read, catches up on everything missed: no owner token needed', async () => {
    const ws = await createTestWorkspace(server.store);
    const s = await seed(ws);
    const reader = await createTestKey(server.store, ws, { scopes: ['content:read'] });
    const { events } = await catchUp(server.url, reader.key, PATH, { limit: 1 });
    expect(events.map((e) => e.data.id)).toEqual([s.batch.id, s.task.id, s.article.id]);

    const visibilityOnly = await createTestKey(server.store, ws, { scopes: ['visibility:read'] });
    expectScopeMissing(await send(server.url, { path: PATH }, visibilityOnly.key), 'content:read');
  });

  it('lists the events of the last 30 days only', async () => {
    const ws = await createTestWorkspace(server.store);
    const s = await seed(ws);
    const emitted = Date.parse(s.after);
    let now = new Date(emitted);
    const later = await startTestServerForThisTest({ store: server.store, now: () => now });
    for (const [days, expected] of [[29, 3], [30, 0], [31, 0]] as const) {
      // The newest event was emitted at `emitted` at the latest: 30 days after it, nothing is left.
      now = new Date(emitted + days * 86_400_000 + (days === 30 ? 1 : 0));
      expect((await readFeed(later.url, ws.key, PATH)).items, `${days} days later`).toHaveLength(expected);
    }
  });

  it('never lists another workspace\'s events', async () => {
    const ws = await createTestWorkspace(server.store);
    await seed(await createTestWorkspace(server.store));
    expect((await readFeed(server.url, ws.key, PATH)).items).toEqual([]);
  });

  it.each([
    ['an event type of another feed', { event_type: 'topic.status_updated' }, 'event_type'],
    ['an unknown event type', { event_type: 'content.deleted' }, 'event_type'],
    ['limit=0', { limit: 0 }, 'limit'],
    ['a cursor that is not one', { cursor: 'WzEwXQ.AAAAAAAAAAAAAAAA' }, 'cursor'],
  ])('when given %s, answers 422 naming the parameter', async (_what, query, named) => {
    const ws = await createTestWorkspace(server.store);
    const res = await send(server.url, { path: PATH, query }, ws.key);
    expectInvalidQuery(res, named);
    // Programs get the same parameter in data.errors.
    const { errors } = (res.body as { data: { errors: Array<{ in: string; name: string }> } }).data;
    expect(errors.map((e) => [e.in, e.name])).toContainEqual(['query', named]);
  });

  it('refuses a cursor of another feed', async () => {
    const ws = await createTestWorkspace(server.store);
    const mapCursor = (await readFeed(server.url, ws.key, FEED_PATHS['content-map'])).next_cursor;
    expectInvalidQuery(await send(server.url, { path: PATH, query: { cursor: mapCursor } }, ws.key), 'cursor');
  });
});
