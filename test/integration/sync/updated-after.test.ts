import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import {
  agentTaskLine, articleLine, changed, ideaLine, iqRecordLine, pageLine, researchBatchLine, siteLine, topicLine, type Line,
} from '../../support/content-records.js';
import { promptLine } from '../../support/import-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { listedIds } from '../../support/record-lists.js';
import { expectStablePaging } from '../../contract/framework/paging.js';
import { send } from '../../support/http.js';

const server = useTestServer();

const T = ['2026-03-01T10:00:00.000Z', '2026-03-01T11:00:00.000Z', '2026-03-01T12:00:00.000Z', '2026-03-01T13:00:00.000Z', '2026-03-01T14:00:00.000Z'] as const;

/**
 * Every list of imported records: its path and a builder of one record with the given times,
 * given the records it may refer to (a topic, a site), imported first.
 */
interface RecordList {
  path: string;
  make: (times: { created_at: string; updated_at: string }, refs: { topicId: string; siteId: string }) => Line;
}

const LISTS: RecordList[] = [
  { path: '/api/v1/visibility/prompts', make: (t) => promptLine(t) },
  { path: '/api/v1/content-map/topics', make: (t) => topicLine(t) },
  { path: '/api/v1/content-map/sites', make: (t) => siteLine(t) },
  { path: '/api/v1/content-map/pages', make: (t, r) => pageLine({ ...t, site_id: r.siteId }) },
  { path: '/api/v1/content/articles', make: (t) => articleLine(t) },
  { path: '/api/v1/content/ideas', make: (t) => ideaLine(t) },
  { path: '/api/v1/content/research-batches', make: (t, r) => researchBatchLine({ ...t, topic_id: r.topicId }) },
  { path: '/api/v1/content/agent-tasks', make: (t) => agentTaskLine({ ...t, started_at: null }) },
  { path: '/api/v1/iq/products', make: (t) => iqRecordLine('product', t) },
  { path: '/api/v1/iq/personas', make: (t) => iqRecordLine('persona', t) },
  { path: '/api/v1/iq/brand-voice', make: (t) => iqRecordLine('voice', t) },
  { path: '/api/v1/iq/content-types', make: (t) => iqRecordLine('content_type', t) },
  { path: '/api/v1/iq/visual-guidelines', make: (t) => iqRecordLine('visual_guideline', t) },
];

/**
 * Three records of the list in a fresh workspace: `a` created first and never updated, `b` created
 * second and updated last, `c` created last and updated in between. Creation order a, b, c; update
 * order a, c, b.
 */
async function seed(list: RecordList, ws: TestWorkspace) {
  const topic = topicLine({ created_at: T[0] });
  const site = siteLine({ created_at: T[0] });
  const refs = { topicId: topic.id, siteId: site.id };
  const a = list.make({ created_at: T[0], updated_at: T[0] }, refs);
  const b = list.make({ created_at: T[1], updated_at: T[3] }, refs);
  const c = list.make({ created_at: T[2], updated_at: T[2] }, refs);
  // Only the records the list's records refer to: a topic or a site would be an item of its own list.
  const dependencies = list.path.endsWith('/pages') ? [site] : list.path.endsWith('/research-batches') ? [topic] : [];
  await importRecords(server.store, ws, [...dependencies, a, b, c]);
  return { a, b, c };
}

const ids = (ws: TestWorkspace, path: string, query: Record<string, string | number>) => listedIds(server, ws, path, query);

describe.each(LISTS)('GET $path: incremental sync', (list) => {
  it('when ordered by updated_at, lists by last update; updated_after keeps only what changed strictly after the instant', async () => {
    const ws = await createTestWorkspace(server.store);
    const { a, b, c } = await seed(list, ws);

    expect(await ids(ws, list.path, {})).toEqual([a.id, b.id, c.id]);
    expect(await ids(ws, list.path, { order: 'created_at' })).toEqual([a.id, b.id, c.id]);
    expect(await ids(ws, list.path, { order: 'updated_at' })).toEqual([a.id, c.id, b.id]);
    expect(await ids(ws, list.path, { order: 'updated_at', updated_after: T[1] })).toEqual([c.id, b.id]);
    // Strictly after: the record updated at exactly T[2] is not listed; any offset names the same instant.
    expect(await ids(ws, list.path, { order: 'updated_at', updated_after: '2026-03-01T14:00:00+02:00' })).toEqual([b.id]);
    expect(await ids(ws, list.path, { updated_after: T[3] })).toEqual([]);

    // The next run asks for what changed after the last update it saw, and gets the record changed since.
    await importRecords(server.store, ws, [changed(a, { updated_at: T[4] })]);
    expect(await ids(ws, list.path, { order: 'updated_at', updated_after: T[3] })).toEqual([a.id]);
  });

  it('when paged in update order after an instant, walks every record once, and a cursor is bound to its order and instant', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const { b, c } = await seed(list, ws);
    await seed(list, other);
    const query = { order: 'updated_at', updated_after: T[1] };

    await expectStablePaging({
      call: (spec) => send(server.url, spec, ws.key),
      request: { path: list.path, query },
      ids: [c.id, b.id],
      foreign: { path: list.path, key: other.key, query },
    });
    const first = (await getWith(server, ws, list.path, { ...query, limit: 1 })).body as { data: { next_cursor: string } };
    const changedQueries: Array<Record<string, string>> = [{ updated_after: T[1] }, { order: 'updated_at', updated_after: T[0] }, { order: 'updated_at' }];
    for (const changedQuery of changedQueries) {
      const res = await getWith(server, ws, list.path, { ...changedQuery, limit: 1, cursor: first.data.next_cursor });
      expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
      expect((res.body as { messages: string }).messages).toContain('cursor');
    }
  });
});

describe('incremental sync: the instant and the order', () => {
  it('when a record is updated while a client pages in update order, it moves to the end and nothing is skipped', async () => {
    const ws = await createTestWorkspace(server.store);
    const { a, b, c } = await seed(LISTS[1]!, ws);
    const path = '/api/v1/content-map/topics';

    const first = (await getWith(server, ws, path, { order: 'updated_at', limit: 1 })).body as { data: { items: Array<{ id: string }>; next_cursor: string } };
    expect(first.data.items.map((i) => i.id)).toEqual([a.id]);
    // c is next in update order; it changes before the client reads on.
    await importRecords(server.store, ws, [changed(c, { updated_at: T[4], coverage: 90 })]);

    const rest = await ids(ws, path, { order: 'updated_at', cursor: first.data.next_cursor });
    expect(rest).toEqual([b.id, c.id]);
  });

  it('when updated_after is not an RFC 3339 date-time with a zone, or order is unknown, answers 422 naming the parameter', async () => {
    const ws = await createTestWorkspace(server.store);
    const queries: Array<Record<string, string>> = [{ updated_after: 'yesterday' }, { updated_after: '2026-03-01T10:00:00' }, { updated_after: '2026-02-30T10:00:00Z' }, { updated_after: '2026-03-01\t10:00:00Z' }, { order: 'name' }];
    for (const query of queries) {
      const res = await getWith(server, ws, '/api/v1/content/articles', query);
      expect([res.status, (res.body as { code: number }).code], JSON.stringify(query)).toEqual([422, 4220]);
      expect((res.body as { messages: string }).messages).toContain(Object.keys(query)[0]);
    }
  });
});
