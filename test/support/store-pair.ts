import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { sqliteTestStoreForThisTest } from './test-server.js';
import { expect, onTestFinished } from 'vitest';
import type { PostgresPool } from '../../src/store/postgres/pool.js';
import { rows as pgRows, run } from '../../src/store/postgres/query.js';
import { createMigratedPostgresPool } from './postgres.js';

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
  const { store: sqlite } = sqliteTestStoreForThisTest();
  const pool = await createMigratedPostgresPool();
  onTestFinished(() => pool.end());
  return { sqlite, pool };
}

/** Every row of `table` in each database, in `orderBy` order: `[sqlite, postgres]`. */
async function tableInBoth(pair: StorePair, table: string, orderBy: string): Promise<[unknown[], unknown[]]> {
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

/** A fresh SQLite file and a fresh PostgreSQL database, both migrated, for running the same calls on each. */
export interface TwinDatabases {
  sqlite: Db;
  postgres: PostgresPool;
  /** Writes the same rows into both (SQL both dialects run as written, `@name` parameters). */
  insertBoth(sql: string, params: Record<string, unknown>): Promise<void>;
  /** A new workspace and its owner, in both. */
  addWorkspaceWithOwner(): Promise<{ workspaceId: string; userId: string }>;
  close(): Promise<void>;
}

export async function openTwinDatabases(): Promise<TwinDatabases> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-twins-'));
  const sqlite = openDatabase(path.join(dir, 'twin.db'));
  const postgres = await createMigratedPostgresPool();
  const insertBoth = async (sql: string, params: Record<string, unknown>) => {
    sqlite.prepare(sql).run(params);
    await run(postgres, sql, params);
  };
  return {
    sqlite,
    postgres,
    insertBoth,
    async addWorkspaceWithOwner() {
      const [workspaceId, userId, at] = [randomUUID(), randomUUID(), '2026-11-01T08:00:00.000Z'];
      await insertBoth("INSERT INTO workspaces (id, name, created_at) VALUES (@workspaceId, 'Twin workspace', @at)", { workspaceId, at });
      await insertBoth("INSERT INTO users (id, email, name, created_at) VALUES (@userId, @email, 'Owner', @at)", { userId, email: `${userId}@example.com`, at });
      await insertBoth("INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (@workspaceId, @userId, 'owner', @at)", { workspaceId, userId, at });
      return { workspaceId, userId };
    },
    async close() {
      sqlite.close();
      await postgres.end();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Which constraint refused a write, named alike for SQLite's and PostgreSQL's error codes. */
function refusal(err: unknown): string {
  const code = String((err as { code?: unknown }).code);
  const kinds: Record<string, string> = {
    SQLITE_CONSTRAINT_PRIMARYKEY: 'unique',
    SQLITE_CONSTRAINT_UNIQUE: 'unique',
    '23505': 'unique',
    SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign key',
    '23503': 'foreign key',
    SQLITE_CONSTRAINT_CHECK: 'check',
    '23514': 'check',
    SQLITE_CONSTRAINT_NOTNULL: 'not null',
    '23502': 'not null',
  };
  return kinds[code] ?? `error ${code}: ${(err as Error).message}`;
}

type Outcome = { value: unknown } | { refused: string };

async function outcome(call: () => unknown): Promise<Outcome> {
  try {
    return { value: await call() };
  } catch (err) {
    return { refused: refusal(err) };
  }
}

type Method = (...args: never[]) => Promise<unknown>;
type ArgsOf<F> = F extends (...args: infer A) => unknown ? A : never;
type ResultOf<F> = F extends (...args: never[]) => infer R ? R : never;

/**
 * Runs the same calls on a SQLite area and its PostgreSQL twin. `same(method, ...args)` calls the
 * method on both with the same arguments and expects the same result, deeply, returning SQLite's;
 * `refused(method, ...args)` expects both to refuse it by the same kind of constraint (unique,
 * foreign key, check, not null) and returns that kind.
 */
export function storeTwins<S extends { [K in keyof S]: Method }>(sqlite: S, postgres: S) {
  async function both<K extends keyof S & string>(method: K, args: unknown[]): Promise<Outcome> {
    const call = (area: object) => (area as Record<string, (...a: unknown[]) => unknown>)[method]!(...args);
    const fromSqlite = await outcome(() => call(sqlite));
    const fromPostgres = await outcome(() => call(postgres));
    expect(fromPostgres, `${method}(${JSON.stringify(args)}) on PostgreSQL`).toEqual(fromSqlite);
    return fromSqlite;
  }
  return {
    same: async <K extends keyof S & string>(method: K, ...args: ArgsOf<S[K]>): Promise<Awaited<ResultOf<S[K]>>> => {
      const result = await both(method, args);
      if (!('value' in result)) throw new Error(`${method}(${JSON.stringify(args)}) was refused on both: ${result.refused}`);
      return result.value as Awaited<ResultOf<S[K]>>;
    },
    refused: async <K extends keyof S & string>(method: K, ...args: ArgsOf<S[K]>): Promise<string> => {
      const result = await both(method, args);
      if (!('refused' in result)) throw new Error(`${method}(${JSON.stringify(args)}) was accepted on both`);
      return result.refused;
    },
  };
}
