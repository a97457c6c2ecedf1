import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresMigrationNames } from '../../src/store/postgres/migrate.js';
import type { PostgresPool } from '../../src/store/postgres/pool.js';
import { defineSqlFunctions } from '../../src/store/sqlite/database.js';

const MIGRATIONS = fileURLToPath(new URL('../../src/store/sqlite/migrations/', import.meta.url));

/**
 * A database file in `dir` with every migration whose name sorts before `before` applied and
 * recorded, as an earlier version left it; `fill` writes its rows. Opening it with
 * `openDatabase` then applies the later migrations.
 */
export function databaseBefore(dir: string, before: string, fill: (db: Database.Database) => void): string {
  const file = path.join(dir, 'old.db');
  const db = new Database(file);
  defineSqlFunctions(db);
  db.exec('CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL) STRICT');
  for (const name of readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql') && f < before).sort()) {
    db.exec(readFileSync(path.join(MIGRATIONS, name), 'utf8'));
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?)').run(name, '2026-11-01T00:00:00.000Z');
  }
  fill(db);
  db.close();
  return file;
}

const POSTGRES_MIGRATIONS = fileURLToPath(new URL('../../src/store/postgres/migrations/', import.meta.url));

/**
 * The PostgreSQL twin of `databaseBefore`: every PostgreSQL migration whose name sorts before
 * `before` applied to the empty database of `pool` and recorded as `applyPostgresMigrations`
 * records them; `fill` writes its rows. `applyPostgresMigrations` then applies the later ones.
 */
export async function postgresDatabaseBefore(pool: PostgresPool, before: string, fill: (pool: PostgresPool) => Promise<void>): Promise<void> {
  await pool.query('CREATE TABLE schema_migrations (name TEXT COLLATE "C" PRIMARY KEY, applied_at TEXT COLLATE "C" NOT NULL)');
  for (const name of postgresMigrationNames().filter((f) => f < before)) {
    await pool.query(readFileSync(path.join(POSTGRES_MIGRATIONS, name), 'utf8'));
    await pool.query('INSERT INTO schema_migrations VALUES ($1, $2)', [name, '2026-11-01T00:00:00.000Z']);
  }
  await fill(pool);
}
