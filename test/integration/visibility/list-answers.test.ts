import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { snapshotLine } from '../../support/import-records.js';
import { expectStablePaging } from '../../contract/framework/paging.js';
import { expectedAnswers, seedAnswers } from './answers-fixture.js';

// Today is 2026-11-22 (UTC): with range=7d the current period is 11-16..11-22.
const NOW = new Date('2026-11-22T12:00:00.000Z');

const server = useTestServer({ now: () => NOW });

const list = (ws: TestWorkspace, query: Record<string, string | number> = {}) => getWith(server, ws, '/api/v1/visibility/answers', query);
const ids = (res: { body: unknown }) => (res.body as { data: { items: Array<{ id: string }> } }).data.items.map((a) => a.id);

describe('GET /api/v1/visibility/answers', () => {
  it('when answers exist, answers those of the range newest first, with text, competitor names and citations', async () => {
    const ws = await createTestWorkspace(server.store);
    const s = await seedAnswers(server, ws);
    const e = expectedAnswers(s);
    const res = await list(ws, { range: '7d' });
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: { items: [e[s.tieOrder[0]!], e[s.tieOrder[1]!], e.a3], next_cursor: null },
    }]);
  });

  it('when filters are given, answers only the answers matching all of them', async () => {
    const ws = await createTestWorkspace(server.store);
    const s = await seedAnswers(server, ws);
    const tie = s.tieOrder.map((k) => s[k].id);
    expect(ids(await list(ws, { range: '7d', prompt: s.p1.id }))).toEqual([s.a1.id, s.a3.id]);
    expect(ids(await list(ws, { range: '7d', platform: 'perplexity' }))).toEqual([s.a2.id, s.a3.id]);
    expect(ids(await list(ws, { range: '7d', mentioned: 'true' }))).toEqual([s.a1.id, s.a3.id]);
    expect(ids(await list(ws, { range: '7d', cited: 'false' }))).toEqual([s.a2.id, s.a3.id]);
    expect(ids(await list(ws, { range: '7d', mentioned: 'false', cited: 'false' }))).toEqual([s.a2.id]);
    expect(ids(await list(ws, { range: '30d' }))).toEqual([...tie, s.a3.id, s.a4.id]);
    expect(ids(await list(ws, { range: '30d', prompt: s.p2.id, cited: 'true' }))).toEqual([s.a4.id]);
  });

  it('when walked with limit 1, 2 and 3, returns every answer once in the same order; altered and foreign cursors are 422', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const s = await seedAnswers(server, ws);
    await seedAnswers(server, other);
    await expectStablePaging({
      call: (spec) => send(server.url, spec, ws.key),
      request: { path: '/api/v1/visibility/answers', query: { range: '30d' } },
      ids: [s.a1.id, s.a2.id, s.a3.id, s.a4.id],
      foreign: { path: '/api/v1/visibility/answers', query: { range: '30d' }, key: other.key },
    });
  });

  it('when answers are imported during a walk, the walk still returns each earlier answer exactly once', async () => {
    const ws = await createTestWorkspace(server.store);
    const s = await seedAnswers(server, ws);
    const first = (await list(ws, { range: '30d', limit: 2 })).body as { data: { items: Array<{ id: string }>; next_cursor: string } };
    // Four more while walking: at the instants already listed, and newer and older ones.
    await importRecords(server.store, ws, ['2026-11-22T08:00:00.000Z', '2026-11-20T23:59:59.999Z', '2026-11-22T11:00:00.000Z', '2026-11-01T00:00:00.000Z']
      .map((at) => snapshotLine({ prompt_id: s.p1.id, collected_at: at })));
    const seen = first.data.items.map((a) => a.id);
    let cursor: string | null = first.data.next_cursor;
    while (cursor !== null) {
      const page = (await list(ws, { range: '30d', limit: 2, cursor })).body as { data: { items: Array<{ id: string }>; next_cursor: string | null } };
      seen.push(...page.data.items.map((a) => a.id));
      cursor = page.data.next_cursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining([s.a1.id, s.a2.id, s.a3.id, s.a4.id]));
  });

  it('when a filter changes between pages, refuses the cursor with 422', async () => {
    const ws = await createTestWorkspace(server.store);
    await seedAnswers(server, ws);
    const first = (await list(ws, { range: '30d', limit: 1 })).body as { data: { next_cursor: string } };
    const res = await list(ws, { range: '30d', mentioned: 'true', cursor: first.data.next_cursor });
    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
  });

  it('when the prompt belongs to another workspace, answers an empty page', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    await seedAnswers(server, ws);
    const theirs = await seedAnswers(server, other);
    expect((await list(ws, { range: '30d', prompt: theirs.p1.id })).body).toEqual({ code: 2000, messages: 'OK', data: { items: [], next_cursor: null } });
  });

  it('when another workspace has answers, lists none of them', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const mine = await seedAnswers(server, ws);
    await seedAnswers(server, other);
    expect(new Set(ids(await list(ws, { range: '90d', limit: 100 })))).toEqual(new Set([mine.a1.id, mine.a2.id, mine.a3.id, mine.a4.id]));
  });

  it('when mentioned is not a boolean or prompt not a UUID, answers 422 (4220)', async () => {
    const ws = await createTestWorkspace(server.store);
    const queries: Array<Record<string, string>> = [{ mentioned: 'yes' }, { prompt: 'p1' }];
    for (const query of queries) {
      const res = await list(ws, query);
      expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
    }
  });
});
