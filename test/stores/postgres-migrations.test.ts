import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { applyPostgresMigrations, postgresMigrationNames } from '../../src/store/postgres/migrate.js';
import { createPostgresPool, type PostgresPool } from '../../src/store/postgres/pool.js';
import { rows, run, value } from '../../src/store/postgres/query.js';
import { createMigratedPostgresPool, createPostgresDatabase, postgresAvailable } from '../support/postgres.js';
import { until } from '../support/wait.js';

const MIGRATIONS = new URL('../../src/store/postgres/migrations/', import.meta.url);

async function recordedNames(pool: PostgresPool): Promise<string[]> {
  return (await rows<{ name: string }>(pool, 'SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name);
}

/** Runs `work` with pools on one database, ending them afterwards. */
async function withPools<T>(url: string, count: number, work: (pools: PostgresPool[]) => Promise<T>): Promise<T> {
  const pools = Array.from({ length: count }, () => createPostgresPool(url));
  try {
    return await work(pools);
  } finally {
    await Promise.all(pools.map((p) => p.end()));
  }
}

describe.skipIf(!postgresAvailable())('PostgreSQL migrations', () => {
  it('apply every file in name order on an empty database, record each once, and apply nothing the second time', async () => {
    await withPools(await createPostgresDatabase(), 1, async ([pool]) => {
      const names = postgresMigrationNames();
      expect(names.length).toBeGreaterThan(0);
      expect(await applyPostgresMigrations(pool!)).toEqual(names);
      expect(await recordedNames(pool!)).toEqual(names);
      expect(await applyPostgresMigrations(pool!)).toEqual([]);
      expect(await recordedNames(pool!)).toEqual(names);
    });
  });

  it('started by two instances at the same moment on a fresh database, both finish and every file is applied and recorded once', async () => {
    await withPools(await createPostgresDatabase(), 2, async (pools) => {
      const [first, second] = await Promise.all(pools.map((pool) => applyPostgresMigrations(pool)));
      const names = postgresMigrationNames();
      // One runner applies everything while the other waits for the lock, then finds nothing to do.
      expect([...first!, ...second!].sort()).toEqual(names);
      expect([first!.length, second!.length].sort((a, b) => a - b)).toEqual([0, names.length]);
      expect(await recordedNames(pools[0]!)).toEqual(names);
    });
  });

  it('roll a failing file back whole and stop there: 032 refuses rows whose page address PostgreSQL cannot compute', async () => {
    await withPools(await createPostgresDatabase(), 1, async ([pool]) => {
      // The database as the files before 032 left it, with a page already in it.
      await pool!.query('CREATE TABLE schema_migrations (name TEXT COLLATE "C" PRIMARY KEY, applied_at TEXT COLLATE "C" NOT NULL)');
      for (const name of postgresMigrationNames().filter((n) => n < '032')) {
        await pool!.query(readFileSync(new URL(name, MIGRATIONS), 'utf8'));
        await run(pool!, 'INSERT INTO schema_migrations VALUES (?, ?)', [name, '2026-11-01T00:00:00.000Z']);
      }
      await run(pool!, "INSERT INTO workspaces VALUES ('w1', 'W', 'active', '2026-11-01T00:00:00.000Z')");
      await run(pool!, "INSERT INTO sitemap_urls VALUES ('s1', 'w1', 'https://a.example/', 'page', 1, '', 1, 1, 0, 1, '', '')");
      await run(pool!, "INSERT INTO pages (id, workspace_id, url, site_id, status, created_at, updated_at) VALUES ('p1', 'w1', 'https://a.example/', 's1', 'READY', '', '')");

      await expect(applyPostgresMigrations(pool!)).rejects.toThrow(/032-page-addresses\.sql failed: .*page address/);
      expect(await recordedNames(pool!)).not.toContain('032-page-addresses.sql');
      expect(await value(pool!, "SELECT count(*) FROM information_schema.columns WHERE table_name = 'pages' AND column_name = 'address'")).toBe(0);
      expect(await value(pool!, "SELECT count(*) FROM pg_indexes WHERE indexname = 'pages_by_url'")).toBe(1);
    });
  });

  it('number event feed rows in commit order: a second transaction writing events waits for the first to end', async () => {
    const pool = await createMigratedPostgresPool();
    const [early, late] = [await pool.connect(), await pool.connect()];
    try {
      await run(pool, "INSERT INTO workspaces VALUES ('w1', 'W', 'active', '2026-11-01T00:00:00.000Z')");
      const addEvent = (client: pg.PoolClient, id: string) =>
        run(client, `WITH e AS (INSERT INTO webhook_events VALUES (@id, 'w1', 'content.status_updated', '{}', '2026-11-01T00:00:00.000Z') RETURNING id)
                     INSERT INTO event_feed (event_id, workspace_id, feed, event_type, created_at)
                     SELECT id, 'w1', 'content', 'content.status_updated', '2026-11-01T00:00:00.000Z' FROM e`, { id });
      await early.query('BEGIN');
      await late.query('BEGIN');
      await addEvent(early, 'e1');
      const latePid = await value<number>(late, 'SELECT pg_backend_pid()');
      const lateInsert = addEvent(late, 'e2');
      await until(
        async () => (await value(pool, 'SELECT wait_event_type FROM pg_stat_activity WHERE pid = ?', [latePid])) === 'Lock',
        10_000,
        'the second transaction to wait for the event feed lock',
      );
      // Without the lock the waiting transaction would already hold a number lower than this one.
      await addEvent(early, 'e3');
      await early.query('COMMIT');
      await lateInsert;
      await late.query('COMMIT');
      expect(await rows(pool, 'SELECT event_id FROM event_feed ORDER BY seq')).toEqual([{ event_id: 'e1' }, { event_id: 'e3' }, { event_id: 'e2' }]);
    } finally {
      early.release();
      late.release();
      await pool.end();
    }
  });
});
