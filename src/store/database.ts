import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { applyMigrations } from './migrate.js';

export type Db = Database.Database;

/**
 * Opens (creating if needed) the SQLite file and brings its schema up to date. WAL lets the HTTP
 * server read while an import or the CLI writes; busy_timeout makes concurrent writers wait
 * instead of failing.
 */
export function openDatabase(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  // First, so that switching a new file to WAL waits for a concurrent opener instead of failing.
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  applyMigrations(db);
  return db;
}
