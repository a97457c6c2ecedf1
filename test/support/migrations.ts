import Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
