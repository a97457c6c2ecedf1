import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PostgresPool } from './pool.js';
import { inTransactionOn, rows, run } from './query.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** The advisory lock held for a whole run of migrations (keys are listed in migrations/README.md). */
const MIGRATION_LOCK_KEY = 4242001;

/** The migration files in the order they apply: their names' order, as SQLite's runner takes them. */
export function postgresMigrationNames(): string[] {
  return readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort();
}

/**
 * Applies every `migrations/NNN-name.sql` not yet recorded in `schema_migrations`, in name order,
 * each in its own transaction; returns the names it applied. The whole run holds a session-level
 * advisory lock, so instances that start together take turns: the first applies the files, the
 * others wait, then find them recorded and apply nothing (a file is never applied twice, and
 * `CREATE TABLE IF NOT EXISTS` never races). The lock goes with the connection, so a runner that
 * dies frees it.
 */
export async function applyPostgresMigrations(pool: PostgresPool): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name TEXT COLLATE "C" PRIMARY KEY,
      applied_at TEXT COLLATE "C" NOT NULL
    )`);
    const applied = new Set((await rows<{ name: string }>(client, 'SELECT name FROM schema_migrations')).map((r) => r.name));
    const appliedNow: string[] = [];
    for (const name of postgresMigrationNames().filter((f) => !applied.has(f))) {
      const sql = readFileSync(MIGRATIONS_DIR + name, 'utf8');
      await inTransactionOn(client, async () => {
        // Without parameters, node-postgres sends the file as one simple query: all its statements run.
        await client.query(sql).catch((err: Error) => {
          throw new Error(`PostgreSQL migration ${name} failed: ${err.message}`, { cause: err });
        });
        await run(client, 'INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)', [name, new Date().toISOString()]);
      });
      appliedNow.push(name);
    }
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    client.release();
    return appliedNow;
  } catch (err) {
    // Closing the connection ends its session, which frees the lock whatever state it is in.
    client.release(err instanceof Error ? err : true);
    throw err;
  }
}
