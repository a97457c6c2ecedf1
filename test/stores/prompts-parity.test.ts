import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordOrder, RecordPage } from '../../src/store/interfaces/list-pages.js';
import type { PromptListFilters, PromptStore } from '../../src/store/interfaces/prompts.js';
import type { PromptRecord } from '../../src/store/interfaces/visibility-rows.js';
import { createPostgresPromptStore } from '../../src/store/postgres/prompts.js';
import { everyPage } from '../support/keyset-pages.js';
import { postgresAvailable } from '../support/postgres.js';
import { openParityData, type ParityData } from '../support/visibility-parity.js';

const UNKNOWN_ID = '00000000-0000-4000-a000-000000000000';

function allPages(store: PromptStore, filters: PromptListFilters, order: RecordOrder, updatedAfter: string | null, limit: number) {
  return everyPage<PromptRecord, RecordPage['after']>(
    (pageLimit, after) => store.list(filters, { order, updatedAfter, after, limit: pageLimit }),
    (last) => [order === 'created_at' ? last.created_at : last.updated_at, last.id],
    limit,
  );
}

describe.skipIf(!postgresAvailable())('PostgreSQL prompt store reads what the SQLite one reads', () => {
  let data: ParityData;
  let sqlite: PromptStore;
  let postgres: PromptStore;

  beforeAll(async () => {
    data = await openParityData();
    sqlite = data.sqlite.prompts;
    postgres = createPostgresPromptStore(data.pool);
  });
  afterAll(async () => {
    await data?.close();
  });

  it('get: every prompt of the workspace, and nothing for an unknown id or another workspace\'s prompt', async () => {
    const asked: Array<[string, string]> = [
      ...data.main.promptIds.map((id) => [data.main.workspaceId, id] as [string, string]),
      [data.main.workspaceId, data.other.promptIds[0]!],
      [data.other.workspaceId, data.other.promptIds[1]!],
      [data.main.workspaceId, UNKNOWN_ID],
      [data.empty.workspaceId, data.main.promptIds[0]!],
    ];
    for (const [workspaceId, id] of asked) {
      const expected = await sqlite.get(workspaceId, id);
      expect(await postgres.get(workspaceId, id), id).toStrictEqual(expected);
    }
    // The comparison means something: rows with a category, rows without, an absent one.
    const found = await Promise.all(data.main.promptIds.map((id) => sqlite.get(data.main.workspaceId, id)));
    expect(found.some((p) => p?.category_name !== null)).toBe(true);
    expect(found.some((p) => p?.category_id === null)).toBe(true);
    expect(found.some((p) => p?.last_collected_ms === null)).toBe(true);
    expect(await sqlite.get(data.main.workspaceId, UNKNOWN_ID)).toBeUndefined();
  });

  it('list: the same pages at every page size, in both orders, with every filter', async () => {
    const workspaceId = data.main.workspaceId;
    const filters: PromptListFilters[] = [
      { workspaceId },
      { workspaceId: data.other.workspaceId },
      { workspaceId: data.empty.workspaceId },
      { workspaceId, status: 'ACTIVE' },
      { workspaceId, status: 'PENDING' },
      { workspaceId, status: 'GENERATING' },
      { workspaceId, categoryId: data.main.categoryIds[1] },
      { workspaceId, categoryId: data.other.categoryIds[0] },
      { workspaceId, status: 'ACTIVE', categoryId: data.main.categoryIds[0], q: 'best' },
    ];
    let rowsCompared = 0;
    for (const filter of filters) {
      for (const order of ['created_at', 'updated_at'] as const) {
        for (const updatedAfter of [null, '2026-01-01T00:03:00.000Z', '2026-01-02T00:03:00.000Z', '2027-01-01T00:00:00.000Z']) {
          for (const limit of [1, 3, 7, 100]) {
            const expected = await allPages(sqlite, filter, order, updatedAfter, limit);
            expect(await allPages(postgres, filter, order, updatedAfter, limit), JSON.stringify({ filter, order, updatedAfter, limit })).toStrictEqual(expected);
            rowsCompared += expected.flat().length;
          }
        }
      }
    }
    expect(rowsCompared).toBeGreaterThan(1000);
  });

  it('list: a position between rows, on a tie of creation times, or past the end', async () => {
    const workspaceId = data.main.workspaceId;
    const all = await sqlite.list({ workspaceId }, { order: 'created_at', updatedAfter: null, limit: 100 });
    const tied = all.find((p, i) => all[i + 1]?.created_at === p.created_at)!;
    const positions: Array<readonly [string, string]> = [
      [tied.created_at, tied.id],
      [tied.created_at, ''],
      [tied.created_at, 'ffffffff'],
      ['2026-01-01T00:05:30.000Z', UNKNOWN_ID],
      ['9999-12-31T23:59:59.999Z', ''],
      ['', ''],
    ];
    for (const after of positions) {
      for (const order of ['created_at', 'updated_at'] as const) {
        const page = { order, updatedAfter: null, after, limit: 5 };
        expect(await postgres.list({ workspaceId }, page), JSON.stringify(page)).toStrictEqual(await sqlite.list({ workspaceId }, page));
      }
    }
  });

  it('list: the text search folds Unicode case as JavaScript does, and finds substrings anywhere', async () => {
    const workspaceId = data.main.workspaceId;
    const searches = ['İSTANBUL', 'i̇stanbul', 'istanbul', 'école', 'ÉCOLE', 'STRASSE', 'straße', 'ΣΟΦΟΣ', 'σοφος', 'ǅ', 'ǆungla', 'Ǆ', '😀', 'BEST', 'best a', 'ärger', 'ÄRGER', '#1', '%', '_', 'text #4', 'no such words', 'best\u0000a'];
    const matched: Record<string, number> = {};
    for (const q of searches) {
      const page = { order: 'created_at' as const, updatedAfter: null, limit: 100 };
      const expected = await sqlite.list({ workspaceId, q }, page);
      expect(await postgres.list({ workspaceId, q }, page), q).toStrictEqual(expected);
      matched[q] = expected.length;
    }
    // Searches that only match when non-ASCII letters fold: the comparison covers them.
    expect(matched['İSTANBUL']).toBeGreaterThan(0);
    expect(matched['ÉCOLE']).toBeGreaterThan(0);
    expect(matched['σοφος']).toBeGreaterThan(0);
    expect(matched['Ǆ']).toBeGreaterThan(0);
    expect(matched['ÄRGER']).toBeGreaterThan(0);
    expect(matched['no such words']).toBe(0);
  });
});
