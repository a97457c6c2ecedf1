import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/store/sqlite/database.js';
import { checkedLines } from '../../src/import/checked-lines.js';
import { importLines } from '../../src/import/import-ndjson.js';
import type { ImportStore, ImportSummary } from '../../src/store/interfaces/imports.js';
import { createPostgresImportStore, type PostgresImportBounds } from '../../src/store/postgres/import/import-store.js';
import type { PostgresPool } from '../../src/store/postgres/pool.js';
import { rows as pgRows } from '../../src/store/postgres/query.js';
import type { ImportStep, ScenarioWorkspace } from './import-scenarios.js';
import { storePairForThisTest, type StorePair } from './store-pair.js';

/** A SQLite store and a PostgreSQL database with the same two empty workspaces, for one test. */
export interface ImportPair extends StorePair {
  workspaces: Record<ScenarioWorkspace, string>;
  postgresImports: ImportStore;
}

export async function importPairForThisTest(bounds: Partial<PostgresImportBounds> = {}): Promise<ImportPair> {
  const pair = await storePairForThisTest();
  const workspaces = { a: randomUUID(), b: randomUUID() };
  for (const [name, id] of Object.entries(workspaces)) {
    const row = { id, name: `Workspace ${name}`, subscription_status: 'active' as const, created_at: '2026-01-01T00:00:00.000Z' };
    await pair.sqlite.accounts.insertWorkspace(row);
    await pair.pool.query('INSERT INTO workspaces (id, name, subscription_status, created_at) VALUES ($1, $2, $3, $4)', [row.id, row.name, row.subscription_status, row.created_at]);
  }
  return { ...pair, workspaces, postgresImports: createPostgresImportStore(pair.pool, bounds) };
}

/** Both stores' imports take the same clock, so the answers they write carry the same `updated_at`. */
const IMPORT_CLOCK = (): Date => new Date('2026-11-23T10:00:00.000Z');

/** The lines as an import reads them, in batches of `size`. */
async function* inBatches(lines: readonly string[], size: number): AsyncGenerator<string[]> {
  for (let i = 0; i < lines.length; i += size) yield lines.slice(i, i + size);
}

/** What one import step gives: its summary, or the message of its error. */
export type StepResult = ImportSummary | { error: string; name: string };

function outcome(promise: Promise<ImportSummary>): Promise<StepResult> {
  return promise.then(
    (summary) => summary,
    (err: Error) => ({ error: err.message, name: err.name }),
  );
}

export function importIntoSqlite(pair: ImportPair, step: ImportStep): Promise<StepResult> {
  return outcome(importLines(pair.sqlite, pair.workspaces[step.workspace], step.lines, { events: step.events, now: IMPORT_CLOCK }));
}

export function importIntoPostgres(pair: ImportPair, step: ImportStep, batchSize = 500): Promise<StepResult> {
  const lines = checkedLines(inBatches(step.lines, batchSize));
  return outcome(pair.postgresImports.run(pair.workspaces[step.workspace], lines, { events: step.events, lock: {}, now: IMPORT_CLOCK }));
}

type Row = Record<string, unknown>;

/**
 * Every table's rows in a form both databases give for the same data: rows sorted, keys sorted.
 * What differs by nature is left out or replaced: event ids and times (random, the clock) become
 * the event's place in its feed, and the feed's numbers their order (PostgreSQL's sequences keep
 * numbers a rolled-back transaction took).
 */
function comparable(tables: Map<string, Row[]>): Record<string, string[]> {
  const feed = (tables.get('event_feed') ?? []).sort((a, b) => Number(a.seq) - Number(b.seq));
  const place = new Map(feed.map((row, i) => [row.event_id as string, i + 1]));
  const out: Record<string, string[]> = {};
  for (const [table, rows] of tables) {
    out[table] = rows
      .map((row) => {
        const r: Row = { ...row };
        if (table === 'event_feed') {
          r.seq = place.get(r.event_id as string);
          r.event_id = r.seq;
          delete r.created_at;
        }
        if (table === 'webhook_events') {
          r.id = place.get(r.id as string);
          delete r.created_at;
        }
        if (table === 'webhook_deliveries') {
          r.event_id = place.get(r.event_id as string);
          const body = JSON.parse(r.payload as string) as Row;
          delete body.timestamp;
          r.payload = body;
          for (const column of ['id', 'created_at', 'next_attempt_at']) delete r[column];
        }
        return JSON.stringify(Object.fromEntries(Object.entries(r).sort(([a], [b]) => (a < b ? -1 : 1))));
      })
      .sort();
  }
  return out;
}

/** Every table of the SQLite file, comparable with `postgresContents`. */
export function sqliteContents(db: Db): Record<string, string[]> {
  const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'").pluck().all() as string[];
  return comparable(new Map(names.map((name) => [name, db.prepare(`SELECT * FROM "${name}"`).all() as Row[]])));
}

/** Every table of the PostgreSQL database, comparable with `sqliteContents`. */
export async function postgresContents(pool: PostgresPool): Promise<Record<string, string[]>> {
  const names = await pgRows<{ name: string }>(
    pool,
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'",
  );
  const tables = new Map<string, Row[]>();
  for (const { name } of names) tables.set(name, await pgRows<Row>(pool, `SELECT * FROM "${name}"`));
  return comparable(tables);
}
