import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPostgresMigrations } from '../../src/store/postgres/migrate.js';
import { createPostgresPool, type PostgresPool } from '../../src/store/postgres/pool.js';
import { rows } from '../../src/store/postgres/query.js';
import { postgresDatabaseBefore } from '../support/migrations.js';
import { createPostgresDatabase, postgresAvailable } from '../support/postgres.js';

// Answers stored before migration 013 get their collection time as their update time, no later than
// the migration's own time: the same text SQLite's 013 computes, with
//   min(strftime('%Y-%m-%dT%H:%M:%S', collected_ms / 1000, 'unixepoch') || printf('.%03dZ', collected_ms % 1000),
//       strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
const SQLITE_BACKFILL = "SELECT strftime('%Y-%m-%dT%H:%M:%S', ? / 1000, 'unixepoch') || printf('.%03dZ', ? % 1000)";

const COLLECTED = [
  Date.parse('2026-01-01T00:00:00.000Z'),
  Date.parse('2026-01-01T00:00:00.999Z'),
  Date.parse('2026-03-01T23:59:59.001Z'),
  Date.parse('1999-12-31T23:59:59.010Z'),
  Date.parse('2100-01-01T00:00:00.000Z'), // collected "in the future": kept no later than now
];

describe.skipIf(!postgresAvailable())('PostgreSQL migration 013: answers get an update time', () => {
  let pool: PostgresPool;
  let migratedFrom: string;
  let migratedUntil: string;

  beforeAll(async () => {
    pool = createPostgresPool(await createPostgresDatabase());
    await postgresDatabaseBefore(pool, '013', async (db) => {
      await db.query("INSERT INTO workspaces (id, name, subscription_status, created_at) VALUES ('w1', 'W', 'active', '2026-01-01T00:00:00.000Z')");
      await db.query("INSERT INTO prompts (id, workspace_id, text, status, created_at, updated_at) VALUES ('p1', 'w1', 'T', 'ACTIVE', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')");
      for (const [i, ms] of COLLECTED.entries()) {
        await db.query(
          "INSERT INTO snapshots (id, workspace_id, prompt_id, platform, collected_ms, day, mentioned, cited, competitors, citations, answer) VALUES ($1, 'w1', 'p1', 'grok', $2, $3, 1, 0, '[]', '[]', 'A')",
          [`s${i}`, ms, Math.floor(ms / 86_400_000)],
        );
      }
    });
    migratedFrom = new Date().toISOString();
    expect((await applyPostgresMigrations(pool))[0]).toBe('013-snapshot-updated-at.sql');
    migratedUntil = new Date().toISOString();
  });
  afterAll(async () => {
    await pool?.end();
  });

  it('writes each stored answer\'s collection time as SQLite\'s file writes it, no later than the migration', async () => {
    const stored = await rows<{ collected_ms: number; updated_at: string }>(pool, 'SELECT collected_ms, updated_at FROM snapshots ORDER BY id');
    const sqlite = new Database(':memory:');
    for (const { collected_ms: ms, updated_at: updatedAt } of stored) {
      if (ms > Date.parse(migratedUntil)) {
        expect(updatedAt >= migratedFrom && updatedAt <= migratedUntil, updatedAt).toBe(true);
        expect(updatedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      } else {
        expect(updatedAt).toBe(new Date(ms).toISOString());
        expect(updatedAt).toBe(sqlite.prepare(SQLITE_BACKFILL).pluck().get(ms, ms));
      }
    }
    sqlite.close();
    expect(stored).toHaveLength(COLLECTED.length);
  });

  it('indexes the update order of the workspace and of each prompt', async () => {
    const indexes = await rows<{ indexdef: string }>(pool, "SELECT indexdef FROM pg_indexes WHERE tablename = 'snapshots' AND indexname LIKE '%update' ORDER BY indexname");
    expect(indexes.map((i) => i.indexdef)).toEqual([
      'CREATE INDEX snapshots_by_prompt_update ON public.snapshots USING btree (prompt_id, updated_at, id)',
      'CREATE INDEX snapshots_by_update ON public.snapshots USING btree (workspace_id, updated_at, id)',
    ]);
  });
});
