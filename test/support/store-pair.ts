import { expect, onTestFinished } from 'vitest';
import type { PostgresPool } from '../../src/store/postgres/pool.js';
import { rows as pgRows } from '../../src/store/postgres/query.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { createMigratedPostgresPool } from './postgres.js';
import { testStoreForThisTest } from './test-server.js';

export interface StorePair {
  /** The SQLite store, over a fresh file. */
  sqlite: SqliteStore;
  /** A pool on a fresh PostgreSQL database migrated to the same schema, still empty. */
  pool: PostgresPool;
}

/**
 * A fresh SQLite file and a fresh PostgreSQL database for the running test, both removed or closed
 * when it finishes (the database goes with the run's cluster). Call it inside a test.
 */
export async function storePairForThisTest(): Promise<StorePair> {
  const { store: sqlite } = testStoreForThisTest();
  const pool = await createMigratedPostgresPool();
  onTestFinished(() => pool.end());
  return { sqlite, pool };
}

/** Every row of `table` in each database, in `orderBy` order: `[sqlite, postgres]`. */
export async function tableInBoth(pair: StorePair, table: string, orderBy: string): Promise<[unknown[], unknown[]]> {
  const sql = `SELECT * FROM ${table} ORDER BY ${orderBy}`;
  return [pair.sqlite.db.prepare(sql).all(), await pgRows(pair.pool, sql)];
}

/** The two databases hold the same rows in `table`, value for value and key for key. */
export async function expectSameTable(pair: StorePair, table: string, orderBy: string): Promise<void> {
  const [sqlite, postgres] = await tableInBoth(pair, table, orderBy);
  expect(postgres, `${table} on PostgreSQL`).toStrictEqual(sqlite);
}

/**
 * Calls the same method on both stores, one after the other (SQLite first), and expects the same
 * answer; resolves it.
 */
export async function sameAnswer<S, R>(stores: readonly [S, S], call: (store: S) => Promise<R>, what = 'answer'): Promise<R> {
  const fromSqlite = await call(stores[0]);
  const fromPostgres = await call(stores[1]);
  expect(fromPostgres, `PostgreSQL's ${what}`).toStrictEqual(fromSqlite);
  return fromSqlite;
}
