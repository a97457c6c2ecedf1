import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/analytics/periods.js';
import type { AnswerFilter, AnswerPosition, AnswerRow, AnswerStore, AnswerUpdateFilter, AnswerUpdatePosition } from '../../src/store/interfaces/visibility-answers.js';
import { createPostgresAnswerStore } from '../../src/store/postgres/visibility-answers.js';
import { everyPage } from '../support/keyset-pages.js';
import { postgresAvailable } from '../support/postgres.js';
import { openParityData, TODAY, type ParityData } from '../support/visibility-parity.js';

const UNKNOWN_ID = '00000000-0000-4000-a000-000000000000';

function allPages(store: AnswerStore, filter: AnswerFilter, limit: number): Promise<AnswerRow[][]> {
  return everyPage<AnswerRow, AnswerPosition>((pageLimit, before) => store.page(filter, pageLimit, before), (last) => [last.collected_ms, last.id], limit);
}

async function collect(answers: AsyncIterable<AnswerRow>): Promise<AnswerRow[]> {
  const out: AnswerRow[] = [];
  for await (const answer of answers) out.push(answer);
  return out;
}

describe.skipIf(!postgresAvailable())('PostgreSQL answer store reads what the SQLite one reads', () => {
  let data: ParityData;
  let sqlite: AnswerStore;
  let postgres: AnswerStore;
  /** An instant two answers share. */
  let tiedMs: number;
  /** The main workspace's update times, oldest first: each import stamped the answers it wrote. */
  let stamps: string[];

  beforeAll(async () => {
    data = await openParityData();
    sqlite = data.sqlite.answers;
    postgres = createPostgresAnswerStore(data.pool);
    const all = await sqlite.page({ workspaceId: data.main.workspaceId, fromMs: 0, untilMs: Number.MAX_SAFE_INTEGER }, 10_000);
    tiedMs = all.find((a, i) => all[i + 1]?.collected_ms === a.collected_ms)!.collected_ms;
    stamps = [...new Set(all.map((a) => a.updated_at))].sort();
  });
  afterAll(async () => {
    await data?.close();
  });

  function filters(): AnswerFilter[] {
    const workspaceId = data.main.workspaceId;
    const everything = { workspaceId, fromMs: 0, untilMs: Number.MAX_SAFE_INTEGER };
    const month = { workspaceId, fromMs: (TODAY - 29) * DAY_MS, untilMs: (TODAY + 1) * DAY_MS };
    return [
      everything,
      month,
      { ...everything, workspaceId: data.other.workspaceId },
      { ...everything, workspaceId: data.empty.workspaceId },
      { ...everything, promptId: data.main.promptIds[0] },
      { ...month, promptId: data.main.promptIds[7] },
      { ...everything, promptId: data.other.promptIds[0] },
      { ...everything, promptId: UNKNOWN_ID },
      { ...everything, platform: 'perplexity' },
      { ...month, platform: 'claude', mentioned: true },
      { ...everything, mentioned: false },
      { ...everything, cited: true },
      { ...month, mentioned: true, cited: false },
      { ...everything, promptId: data.main.promptIds[2], platform: 'chatgpt', mentioned: true, cited: false },
      { ...everything, updatedAfter: stamps[0] },
      { ...month, promptId: data.main.promptIds[4], updatedAfter: stamps[1] },
      { ...everything, updatedAfter: null },
      // Windows that start or end exactly at an instant two answers share, and an empty one.
      { workspaceId, fromMs: tiedMs, untilMs: tiedMs + 1 },
      { workspaceId, fromMs: tiedMs - DAY_MS, untilMs: tiedMs },
      { workspaceId, fromMs: tiedMs, untilMs: tiedMs },
    ];
  }

  /** Pages of one answer where that is a few dozen reads; a size that splits ties and the last page otherwise. */
  async function pageSizes(filter: AnswerFilter): Promise<number[]> {
    const count = (await sqlite.page(filter, 100_000)).length;
    return count <= 60 ? [1, 7] : [13, 100];
  }

  it('page: the same pages at every page size, for every filter and window', async () => {
    let compared = 0;
    for (const filter of filters()) {
      for (const limit of await pageSizes(filter)) {
        const expected = await allPages(sqlite, filter, limit);
        expect(await allPages(postgres, filter, limit), JSON.stringify({ filter, limit })).toStrictEqual(expected);
        compared += expected.flat().length;
      }
    }
    expect(compared).toBeGreaterThan(2000);
    const tied = await sqlite.page({ workspaceId: data.main.workspaceId, fromMs: tiedMs, untilMs: tiedMs + 1 }, 10);
    expect(tied.length).toBeGreaterThan(1);
  });

  it('page: a position that is no answer\'s, between two answers of one instant, or before the window', async () => {
    const filter = { workspaceId: data.main.workspaceId, fromMs: 0, untilMs: Number.MAX_SAFE_INTEGER };
    const tied = await sqlite.page({ ...filter, fromMs: tiedMs, untilMs: tiedMs + 1 }, 10);
    const positions: AnswerPosition[] = [
      [tiedMs, tied[0]!.id],
      [tiedMs, ''],
      [tiedMs, 'g'],
      [tiedMs + 1, UNKNOWN_ID],
      [0, ''],
      [Number.MAX_SAFE_INTEGER, 'zzzz'],
    ];
    for (const before of positions) {
      expect(await postgres.page(filter, 5, before), JSON.stringify(before)).toStrictEqual(await sqlite.page(filter, 5, before));
    }
  });

  it('all: every matching answer, newest first, whatever the chunk', async () => {
    for (const filter of filters()) {
      for (const chunk of [...(await pageSizes(filter)), 500]) {
        const expected = await collect(sqlite.all(filter, chunk));
        expect(await collect(postgres.all(filter, chunk)), JSON.stringify({ filter, chunk })).toStrictEqual(expected);
      }
    }
    const all = await collect(postgres.all({ workspaceId: data.main.workspaceId, fromMs: 0, untilMs: Number.MAX_SAFE_INTEGER }));
    expect(all).toHaveLength(data.main.answerIds.length);
  });

  it('pageByUpdate: the same pages in update order, from every bound, window and filter', async () => {
    expect(stamps).toHaveLength(3);
    const workspaceId = data.main.workspaceId;
    const anyTime = { workspaceId, fromMs: null, untilMs: null };
    const month = { workspaceId, fromMs: (TODAY - 29) * DAY_MS, untilMs: (TODAY + 1) * DAY_MS };
    const before = (stamp: string) => new Date(Date.parse(stamp) - 1).toISOString();
    const updateFilters: AnswerUpdateFilter[] = [
      anyTime,
      month,
      { ...anyTime, workspaceId: data.other.workspaceId },
      { ...anyTime, workspaceId: data.empty.workspaceId },
      ...stamps.flatMap((stamp) => [{ ...anyTime, updatedAfter: stamp }, { ...anyTime, updatedAfter: before(stamp) }]),
      { ...anyTime, updatedAfter: '1970-01-01T00:00:00.000Z' },
      { ...anyTime, updatedAfter: '9999-12-31T23:59:59.999Z' },
      { ...month, updatedAfter: stamps[0], platform: 'gemini' },
      { ...anyTime, promptId: data.main.promptIds[1] },
      { ...month, promptId: data.main.promptIds[6], updatedAfter: before(stamps[1]!), mentioned: true },
      { ...anyTime, cited: true, mentioned: false },
    ];
    let compared = 0;
    for (const filter of updateFilters) {
      const count = (await sqlite.pageByUpdate(filter, 100_000)).length;
      for (const limit of count <= 60 ? [1, 7] : [13, 100]) {
        const read = (store: AnswerStore) =>
          everyPage<AnswerRow, AnswerUpdatePosition>((pageLimit, after) => store.pageByUpdate(filter, pageLimit, after), (last) => [last.updated_at, last.id], limit);
        const expected = await read(sqlite);
        expect(await read(postgres), JSON.stringify({ filter, limit })).toStrictEqual(expected);
        compared += expected.flat().length;
      }
    }
    expect(compared).toBeGreaterThan(2000);
    // Positions between answers of one update time, and none of them.
    const positions: AnswerUpdatePosition[] = [[stamps[1]!, ''], [stamps[1]!, '8'], [stamps[2]!, 'zzzz'], ['', ''], [before(stamps[0]!), UNKNOWN_ID]];
    for (const after of positions) {
      expect(await postgres.pageByUpdate(anyTime, 5, after), JSON.stringify(after)).toStrictEqual(await sqlite.pageByUpdate(anyTime, 5, after));
    }
  });

  it('get: every answer of the workspace, and nothing for another workspace\'s or an unknown id', async () => {
    const asked: Array<[string, string]> = [
      ...data.main.answerIds.map((id) => [data.main.workspaceId, id] as [string, string]),
      [data.main.workspaceId, data.other.answerIds[0]!],
      [data.other.workspaceId, data.other.answerIds[0]!],
      [data.main.workspaceId, UNKNOWN_ID],
    ];
    for (const [workspaceId, id] of asked) {
      expect(await postgres.get(workspaceId, id), id).toStrictEqual(await sqlite.get(workspaceId, id));
    }
    expect(await sqlite.get(data.main.workspaceId, data.other.answerIds[0]!)).toBeUndefined();
  });

  it('competitorNames: every tracked competitor, in the same iteration order', async () => {
    for (const workspaceId of [data.main.workspaceId, data.other.workspaceId, data.empty.workspaceId, UNKNOWN_ID]) {
      expect([...(await postgres.competitorNames(workspaceId))], workspaceId).toStrictEqual([...(await sqlite.competitorNames(workspaceId))]);
    }
    expect((await sqlite.competitorNames(data.main.workspaceId)).size).toBe(10);
  });
});
