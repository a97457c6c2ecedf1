import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { changed, type Line } from '../../support/content-records.js';
import { promptLine, snapshotLine } from '../../support/import-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { expectStablePaging } from '../../contract/framework/paging.js';
import { send } from '../../support/http.js';

// Today is 2026-11-22 (UTC) for the ranges; each import runs on a clock the test sets.
const NOW = new Date('2026-11-22T12:00:00.000Z');
const T = ['2026-11-22T08:00:00.000Z', '2026-11-22T09:00:00.000Z', '2026-11-22T10:00:00.000Z', '2026-11-22T11:00:00.000Z'] as const;
const PATH = '/api/v1/visibility/answers';

const server = useTestServer({ now: () => NOW });

interface ListedAnswer {
  id: string;
  updated_at: string;
}
type Page = { data: { items: ListedAnswer[]; next_cursor: string | null } };

/** Imports the lines with the import's clock at `at`. */
const importAt = (ws: TestWorkspace, lines: ReadonlyArray<{ line: string }>, at: string) =>
  importRecords(server.store, ws, lines, { now: () => new Date(at) });

async function listed(ws: TestWorkspace, query: Record<string, string | number>): Promise<ListedAnswer[]> {
  const res = await getWith(server, ws, PATH, { limit: 100, ...query });
  expect(res.status, res.text).toBe(200);
  return (res.body as Page).data.items.map(({ id, updated_at }) => ({ id, updated_at }));
}

const ids = async (ws: TestWorkspace, query: Record<string, string | number>) => (await listed(ws, query)).map((a) => a.id);

/** Answers that share an update time come in id order. */
const byId = (...lines: Line[]) => lines.map((l) => l.id).sort();

/** A prompt and `n` answers to it, collected an hour apart on 2026-11-21, as import lines (not imported). */
function answerLines(n: number) {
  const prompt = promptLine();
  const answers = Array.from({ length: n }, (_, i) => snapshotLine({ prompt_id: prompt.id, collected_at: `2026-11-21T${String(10 + i).padStart(2, '0')}:00:00.000Z` }));
  return { prompt, answers };
}

describe('GET /api/v1/visibility/answers: incremental sync', () => {
  it('when ordered by updated_at, lists by the import that last changed each answer; updated_after keeps only those changed strictly after the instant', async () => {
    const ws = await createTestWorkspace(server.store);
    const prompt = promptLine();
    const a = snapshotLine({ prompt_id: prompt.id, collected_at: '2026-11-21T10:00:00.000Z' });
    const b = snapshotLine({ prompt_id: prompt.id, collected_at: '2026-11-20T10:00:00.000Z' });
    // Collected long before any range: a sync still gets it.
    const c = snapshotLine({ prompt_id: prompt.id, collected_at: '2026-01-01T10:00:00.000Z' });
    await importAt(ws, [prompt, a, b, c], T[0]);
    const d = snapshotLine({ prompt_id: prompt.id, collected_at: '2026-11-22T10:00:00.000Z' });
    await importAt(ws, [changed(b, { mentioned: false }), d], T[1]);

    const [first, second] = [byId(a, c), byId(b, d)];
    expect(await listed(ws, { order: 'updated_at' })).toEqual([
      ...first.map((id) => ({ id, updated_at: T[0] })),
      ...second.map((id) => ({ id, updated_at: T[1] })),
    ]);
    expect(await ids(ws, { order: 'updated_at', updated_after: T[0] })).toEqual(second);
    // Strictly after, to the millisecond; any offset names the same instant.
    expect(await ids(ws, { order: 'updated_at', updated_after: '2026-11-22T10:00:00+02:00' })).toEqual(second);
    expect(await ids(ws, { order: 'updated_at', updated_after: '2026-11-22T07:59:59.999Z' })).toEqual([...first, ...second]);
    expect(await ids(ws, { order: 'updated_at', updated_after: T[1] })).toEqual([]);
    // `range` narrows the sync to a collection period only when it is given.
    expect(await ids(ws, { order: 'updated_at', range: '7d' })).toEqual([a.id, ...second]);
    // In the default order (newest collected first, within the default 30 days) the bound filters the same way.
    expect(await ids(ws, {})).toEqual([d.id, a.id, b.id]);
    expect(await ids(ws, { updated_after: T[0] })).toEqual([d.id, b.id]);
  });

  it('when filtered by prompt or platform, lists only those answers in update order', async () => {
    const ws = await createTestWorkspace(server.store);
    const one = answerLines(2);
    const two = answerLines(2);
    await importAt(ws, [one.prompt, two.prompt, ...one.answers, ...two.answers], T[0]);
    const [a] = one.answers as [Line, Line];
    const [c] = two.answers as [Line, Line];
    await importAt(ws, [changed(a, { platform: 'claude' }), changed(c, { platform: 'claude' })], T[1]);

    expect(await ids(ws, { order: 'updated_at', prompt: one.prompt.id })).toEqual([one.answers[1]!.id, a.id]);
    expect(await ids(ws, { order: 'updated_at', prompt: one.prompt.id, updated_after: T[0] })).toEqual([a.id]);
    expect(await ids(ws, { order: 'updated_at', platform: 'chatgpt' })).toEqual(byId(one.answers[1]!, two.answers[1]!));
    expect(await ids(ws, { order: 'updated_at', platform: 'claude', updated_after: T[0] })).toEqual(byId(a, c));
  });

  it('when the same file is imported again, no answer moves; a changed field moves only that answer', async () => {
    const ws = await createTestWorkspace(server.store);
    const { prompt, answers } = answerLines(3);
    const [a, b, c] = answers as [Line, Line, Line];
    await importAt(ws, [prompt, a, b, c], T[0]);
    await importAt(ws, [prompt, a, b, c], T[1]);
    expect(await listed(ws, { order: 'updated_at' })).toEqual(byId(a, b, c).map((id) => ({ id, updated_at: T[0] })));
    expect(await ids(ws, { order: 'updated_at', updated_after: T[0] })).toEqual([]);

    await importAt(ws, [prompt, a, changed(b, { answer: 'A corrected answer.' }), c], T[2]);
    expect(await listed(ws, { order: 'updated_at', updated_after: T[0] })).toEqual([{ id: b.id, updated_at: T[2] }]);
  });

  it('when two imports run in the same millisecond, or the clock goes back, the later answers still come strictly after', async () => {
    const ws = await createTestWorkspace(server.store);
    const { prompt, answers } = answerLines(3);
    const [a, b, c] = answers as [Line, Line, Line];
    await importAt(ws, [prompt, a], T[1]);
    await importAt(ws, [b], T[1]);
    await importAt(ws, [c], T[0]);
    expect(await listed(ws, { order: 'updated_at' })).toEqual([
      { id: a.id, updated_at: T[1] },
      { id: b.id, updated_at: '2026-11-22T09:00:00.001Z' },
      { id: c.id, updated_at: '2026-11-22T09:00:00.002Z' },
    ]);
    expect(await ids(ws, { order: 'updated_at', updated_after: T[1] })).toEqual([b.id, c.id]);
  });

  it('when answers change while a client pages in update order, nothing is skipped and a changed answer comes again at the end', async () => {
    const ws = await createTestWorkspace(server.store);
    const { prompt, answers } = answerLines(5);
    await importAt(ws, [prompt, ...answers], T[0]);
    const [s1, s2, s3, s4, s5] = byId(...answers) as [string, string, string, string, string];
    const line = (id: string) => answers.find((l) => l.id === id)!;

    const first = (await getWith(server, ws, PATH, { order: 'updated_at', limit: 2 })).body as Page;
    expect(first.data.items.map((i) => i.id)).toEqual([s1, s2]);
    // One answer already read and one not yet read change before the client reads on.
    await importAt(ws, [changed(line(s1), { cited: true }), changed(line(s4), { cited: true })], T[1]);

    const rest: string[] = [];
    let cursor = first.data.next_cursor;
    while (cursor !== null) {
      const page = (await getWith(server, ws, PATH, { order: 'updated_at', limit: 2, cursor })).body as Page;
      rest.push(...page.data.items.map((i) => i.id));
      cursor = page.data.next_cursor;
    }
    expect(rest).toEqual([s3, s5, ...[s1, s4].sort()]);
  });

  it('when paged in update order after an instant, walks every answer once, and a cursor is bound to its order and instant', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const mine = answerLines(4);
    await importAt(ws, [mine.prompt, ...mine.answers], T[1]);
    const theirs = answerLines(4);
    await importAt(other, [theirs.prompt, ...theirs.answers], T[1]);
    const query = { order: 'updated_at', updated_after: T[0] };

    await expectStablePaging({
      call: (spec) => send(server.url, spec, ws.key),
      request: { path: PATH, query },
      ids: byId(...mine.answers),
      foreign: { path: PATH, key: other.key, query },
    });
    const first = (await getWith(server, ws, PATH, { ...query, limit: 1 })).body as Page;
    const changedQueries: Array<Record<string, string>> = [
      { updated_after: T[0] }, { order: 'updated_at', updated_after: T[2] }, { order: 'updated_at' }, { ...query, range: '30d' },
    ];
    for (const changedQuery of changedQueries) {
      const res = await getWith(server, ws, PATH, { ...changedQuery, limit: 1, cursor: first.data.next_cursor! });
      expect([res.status, (res.body as { code: number }).code], JSON.stringify(changedQuery)).toEqual([422, 4220]);
      expect((res.body as { messages: string }).messages).toContain('cursor');
    }
  });

  it('when updated_after is not an RFC 3339 date-time with a zone, or order is not one of the list, answers 422 naming the parameter', async () => {
    const ws = await createTestWorkspace(server.store);
    const queries: Array<Record<string, string>> = [
      { updated_after: 'yesterday' }, { updated_after: '2026-03-01T10:00:00' }, { updated_after: '2026-02-30T10:00:00Z' },
      { order: 'name' }, { order: 'created_at' },
    ];
    for (const query of queries) {
      const res = await getWith(server, ws, PATH, query);
      expect([res.status, (res.body as { code: number }).code], JSON.stringify(query)).toEqual([422, 4220]);
      expect((res.body as { messages: string }).messages).toContain(Object.keys(query)[0]);
    }
  });
});
