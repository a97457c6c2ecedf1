import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * Applies every `migrations/NNN-name.sql` not yet recorded, in name order, each in its own
 * transaction. Recording by name (not a single counter) keeps it idempotent and lets independent
 * areas add their files without renumbering.
 */
export function applyMigrations(db: Database.Database): string[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    name TEXT PRIMARY KEY,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const applied = new Set(
    db.prepare('SELECT name FROM schema_migrations').pluck().all() as string[],
  );
  const record = db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)');
  const isRecorded = db.prepare('SELECT 1 FROM schema_migrations WHERE name = ?').pluck();
  const pending = readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql') && !applied.has(f))
    .sort();
  const appliedNow: string[] = [];
  for (const file of pending) {
    const sql = readFileSync(MIGRATIONS_DIR + file, 'utf8');
    db.transaction(() => {
      // Another process opening the same new file may have applied it since the read above;
      // the immediate transaction holds the write lock, so this second look is the one that counts.
      if (isRecorded.get(file) !== undefined) return;
      db.exec(sql);
      record.run(file, new Date().toISOString());
      appliedNow.push(file);
    }).immediate();
  }
  return appliedNow;
}
