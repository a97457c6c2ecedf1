import { afterAll, beforeAll, expect, onTestFinished } from 'vitest';
import type { RecordOrder, RecordPage, RecordPosition } from '../../src/store/interfaces/list-pages.js';
import { applyPostgresMigrations } from '../../src/store/postgres/migrate.js';
import { createPostgresPool, type PostgresPool } from '../../src/store/postgres/pool.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createTestWorkspace, type TestWorkspace } from './accounts.js';
import { copySqliteToPostgres } from './copy-sqlite-to-postgres.js';
import { createPostgresDatabase } from './postgres.js';
import { createSqliteTestStore } from './test-server.js';

/** One store area twice: over SQLite and over PostgreSQL, holding the same data. */
export interface StorePair<S> {
  sqlite: S;
  postgres: S;
}

/** A SQLite store with two workspaces filled by `fill`, and a PostgreSQL database holding a copy of it. */
export interface ParityDatabases {
  sqlite: SqliteStore;
  pool: PostgresPool;
  /** The workspace the data is read from, and another one whose records must never show. */
  workspace: TestWorkspace;
  other: TestWorkspace;
  close: () => Promise<void>;
}

/**
 * Fills a fresh SQLite store through `fill` (the import, as the service fills it), then copies
 * every table into a new PostgreSQL database. `close` removes both.
 */
export async function openParityDatabases(fill: (sqlite: SqliteStore, workspace: TestWorkspace, other: TestWorkspace) => Promise<void>): Promise<ParityDatabases> {
  const { store: sqlite, cleanup } = createSqliteTestStore();
  const workspace = await createTestWorkspace(sqlite);
  const other = await createTestWorkspace(sqlite);
  await fill(sqlite, workspace, other);
  const pool = createPostgresPool(await createPostgresDatabase());
  await applyPostgresMigrations(pool);
  await copySqliteToPostgres(sqlite.db, pool);
  return {
    sqlite,
    pool,
    workspace,
    other,
    close: async () => {
      await pool.end();
      cleanup();
    },
  };
}

/**
 * Opens the parity databases before the tests of the `describe` it is called in, hands them to
 * `onOpen`, and closes them after those tests; answers a function that opens databases of the test's
 * own. Call it inside a `describe` body, never at import time.
 */
export function useParityDatabases(fill: Parameters<typeof openParityDatabases>[0], onOpen: (databases: ParityDatabases) => void): () => Promise<ParityDatabases> {
  let databases: ParityDatabases | undefined;
  beforeAll(async () => {
    databases = await openParityDatabases(fill);
    onOpen(databases);
  });
  afterAll(async () => {
    await databases?.close();
  });
  // A test that writes takes databases of its own, filled the same way, so the tests that read the
  // shared ones see the same rows in whatever order the tests run.
  return async () => {
    const own = await openParityDatabases(fill);
    onTestFinished(own.close);
    return own;
  };
}

/**
 * The same answer from both stores: equal values of equal types (`toStrictEqual`) and the same
 * JSON text, so key order and number formatting agree too. Returns the answer.
 */
export function expectSameAnswer<T>(fromSqlite: T, fromPostgres: T, what: string): T {
  expect(fromPostgres, what).toStrictEqual(fromSqlite);
  expect(JSON.stringify(fromPostgres), what).toBe(JSON.stringify(fromSqlite));
  return fromSqlite;
}

/** Calls `read` on both stores and expects the same answer; returns it. */
export async function sameFromBoth<S, T>(pair: StorePair<S>, what: string, read: (store: S) => Promise<T>): Promise<T> {
  const fromSqlite = await read(pair.sqlite);
  const fromPostgres = await read(pair.postgres);
  return expectSameAnswer(fromSqlite, fromPostgres, what);
}

/** How the items of a list name their creation and update times: `createdAt` or `created_at`. */
export type TimeNames = 'camelCase' | 'snake_case';

const TIME_COLUMNS: Record<TimeNames, Record<RecordOrder, string>> = {
  camelCase: { created_at: 'createdAt', updated_at: 'updatedAt' },
  snake_case: { created_at: 'created_at', updated_at: 'updated_at' },
};

/** The item's sort key in `order`: its creation or update time. */
function sortKey(item: { id: string }, order: RecordOrder, names: TimeNames): string {
  return (item as unknown as Record<string, string>)[TIME_COLUMNS[names][order]]!;
}

const ORDERS: readonly RecordOrder[] = ['created_at', 'updated_at'];
const LIMITS = [1, 3, 100];

/**
 * Pages a record list through on both stores, in both orders, from each `updated_after` bound, with
 * pages of 1, 3 and 100, each page compared, each next page starting after the last item as the
 * API's cursor does; also the pages after positions before, between and past the items.
 * Returns every item SQLite listed in creation order without bound, so the caller can check the
 * list is not trivially empty.
 */
export async function expectSamePages<S, Item extends { id: string }>(
  pair: StorePair<S>,
  what: string,
  list: (store: S, page: RecordPage) => Promise<Item[]>,
  names: TimeNames,
  updatedAfter: ReadonlyArray<string | null> = [null],
): Promise<Item[]> {
  let all: Item[] = [];
  for (const order of ORDERS) {
    for (const bound of updatedAfter) {
      for (const limit of LIMITS) {
        const listed: Item[] = [];
        let after: RecordPosition | undefined;
        for (let pages = 0; ; pages += 1) {
          expect(pages, `${what}: the list keeps going`).toBeLessThan(10_000);
          const page: RecordPage = { order, updatedAfter: bound, after, limit };
          const items = await sameFromBoth(pair, `${what} ${JSON.stringify(page)}`, (store) => list(store, page));
          listed.push(...items);
          if (items.length < limit) break;
          const last = items.at(-1)!;
          after = [sortKey(last, order, names), last.id];
        }
        expect(new Set(listed.map((i) => i.id)).size, `${what}: each item once`).toBe(listed.length);
        if (limit !== 100) continue;
        if (order === 'created_at' && bound === null) all = listed;
        // Positions that match no item (before the first, between two, past the end) and the last item's.
        for (const position of edgePositions(listed, order, names)) {
          const page: RecordPage = { order, updatedAfter: bound, after: position, limit: 2 };
          await sameFromBoth(pair, `${what} ${JSON.stringify(page)}`, (store) => list(store, page));
        }
      }
    }
  }
  return all;
}

function edgePositions(listed: ReadonlyArray<{ id: string }>, order: RecordOrder, names: TimeNames): RecordPosition[] {
  const key = (item: { id: string }) => sortKey(item, order, names);
  const positions: RecordPosition[] = [['', ''], ['\u{10FFFF}', '']];
  const first = listed[0];
  if (first) positions.push([key(first), ''], [key(first), first.id.toUpperCase()], [key(first), `${first.id} `]);
  const last = listed.at(-1);
  if (last) positions.push([key(last), last.id]);
  return positions;
}

/** `read` of each id on both stores, compared; the answers in the order of `ids`. */
export async function sameForEach<S, T>(pair: StorePair<S>, what: string, ids: readonly string[], read: (store: S, id: string) => Promise<T>): Promise<T[]> {
  const answers: T[] = [];
  for (const id of ids) answers.push(await sameFromBoth(pair, `${what} ${id}`, (store) => read(store, id)));
  return answers;
}
