import { describe, expect, it } from 'vitest';
import { importLines } from '../../src/import/import-ndjson.js';
import type { EventFeedStore, Feed } from '../../src/store/interfaces/event-feed.js';
import { createPostgresEventFeedStore } from '../../src/store/postgres/event-feed.js';
import { agentTaskLine, articleLine, changed, iqRecordLine, researchBatchLine, siteLine, topicLine } from '../support/content-records.js';
import { postgresAvailable } from '../support/postgres.js';
import { sameFromBoth, type StorePair, useParityDatabases } from '../support/store-parity.js';

const FEEDS: Feed[] = ['content', 'content-map', 'iq'];
const EVENT_TYPES = [
  'content.status_updated', 'research_batch.status_updated', 'agent_task.status_updated', 'topic.status_updated', 'sitemap_url.status_updated',
  'iq.status_updated', 'no.such_type',
];

// Every kind of record, imported in several rounds so that each emits events of its feed in
// between the others' (an article first arriving published, then its status changing twice).
const topic = topicLine({ stage: 'PROCESSING', name: 'Ünïcödé 🚀' });
const site = siteLine({ processing: { total: 2, ready: 1, failed: 0, completed: false } });
const article = articleLine({ status: 'PUBLISHED', title: 'Tïtle with 😀 and "quotes"' });
const batch = researchBatchLine({ topic_id: topic.id, status: 'PROCESSING' });
const task = agentTaskLine({ status: 'QUEUED', started_at: null });
const persona = iqRecordLine('persona', { stage: 'PROCESSING' });
const rounds = [
  [topic, site, article, batch, task, persona],
  [changed(topic, { stage: 'READY' }), changed(article, { status: 'DRAFT' }), changed(task, { status: 'RUNNING' })],
  [changed(persona, { stage: 'READY' }), changed(batch, { status: 'COMPLETED' }), changed(site, { processing: { total: 2, ready: 1, failed: 1, completed: true } })],
  [changed(article, { status: 'FAILED' }), changed(topic, { stage: 'COMPLETED' }), changed(task, { status: 'SUCCEEDED' })],
];
const otherArticle = articleLine({ status: 'PUBLISHED' });

describe.skipIf(!postgresAvailable())('PostgreSQL event feeds answer as the SQLite ones', () => {
  let pair: StorePair<EventFeedStore>;
  let workspaceId: string;
  let otherId: string;
  let times: string[];

  useParityDatabases(async (sqlite, workspace, other) => {
    for (const round of rounds) await importLines(sqlite, workspace.workspaceId, round.map((l) => l.line));
    await importLines(sqlite, other.workspaceId, [otherArticle.line]);
  }, (opened) => {
    pair = { sqlite: opened.sqlite.eventFeed, postgres: createPostgresEventFeedStore(opened.pool) };
    workspaceId = opened.workspace.workspaceId;
    otherId = opened.other.workspaceId;
    times = opened.sqlite.db.prepare('SELECT DISTINCT created_at FROM event_feed ORDER BY created_at').pluck().all() as string[];
  });

  it('lists each feed and each event type from every position and time bound, in commit order', async () => {
    const seqs = (await pair.sqlite.list({ workspaceId, feed: 'content', since: '' }, 0, 1000)).map((r) => r.seq);
    const positions = [0, 1, ...seqs, Number.MAX_SAFE_INTEGER];
    const bounds = ['', ...times, '9999-12-31T00:00:00.000Z'];
    const read = async (filter: Parameters<EventFeedStore['list']>[0], after: number, limit: number) =>
      (await sameFromBoth(pair, `${JSON.stringify(filter)} ${after} ${limit}`, (s) => s.list(filter, after, limit))).length;
    let listed = 0;
    for (const feed of FEEDS) {
      for (const after of positions) for (const limit of [1, 2, 100]) listed += await read({ workspaceId, feed, since: '' }, after, limit);
      for (const since of bounds) for (const after of [0, seqs[2]!]) listed += await read({ workspaceId, feed, since }, after, 100);
    }
    for (const eventType of EVENT_TYPES) {
      for (const after of [0, seqs[1]!, seqs.at(-1)!]) for (const limit of [1, 100]) listed += await read({ workspaceId, feed: 'content', eventType, since: '' }, after, limit);
      for (const since of bounds) listed += await read({ workspaceId, feed: 'iq', eventType, since }, 0, 100);
    }
    expect(listed).toBeGreaterThan(0);
  });

  it('numbers events in commit order, each feed with its own, and lists none of another workspace', async () => {
    const all = await Promise.all(FEEDS.map((feed) => sameFromBoth(pair, feed, (s) => s.list({ workspaceId, feed, since: '' }, 0, 100))));
    for (const rows of all) {
      expect(rows.length).toBeGreaterThan(1);
      expect(rows.map((r) => r.seq)).toEqual([...rows.map((r) => r.seq)].sort((a, b) => a - b));
    }
    expect(all[0]!.map((r) => r.event_type)).toContain('agent_task.status_updated');
    const other = await sameFromBoth(pair, 'other', (s) => s.list({ workspaceId: otherId, feed: 'content', since: '' }, 0, 100));
    expect(other.map((r) => JSON.parse(r.data).id)).toEqual([otherArticle.id]);
  });
});
