import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { applyMigrations } from './migrate.js';
import { pageAddress } from '../visibility/page-address.js';

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
  defineSqlFunctions(db);
  applyMigrations(db);
  return db;
}

/**
 * The application functions SQL on this connection may call: `page_address(url)`, with which
 * migration 032 gives rows written before it the page address the import gives later ones.
 */
export function defineSqlFunctions(db: Db): void {
  db.function('page_address', { deterministic: true }, (url: unknown) => (typeof url === 'string' ? pageAddress(url) : null));
}

/** Readiness: throws when the database does not answer. */
export function pingDatabase(db: Db): void {
  db.prepare('SELECT 1').get();
}

/**
 * Runs writes with a short busy timeout on a shared connection, then restores the connection's
 * own, so a background writer (the webhook dispatcher) waits briefly for a lock held by an import
 * instead of freezing the event loop. Returns `busy` when the lock was not free in time.
 * Nothing else can run on the connection in between: better-sqlite3 is synchronous.
 */
export function shortBusyWriter(db: Db, busyTimeoutMs: number) {
  const normal = db.pragma('busy_timeout', { simple: true }) as number;
  // Prepared once: compiling the pragma text on every write costs more than the write's statements.
  const shorten = db.prepare(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
  const restore = db.prepare(`PRAGMA busy_timeout = ${normal}`);
  return <T>(write: () => T, busy: T): T => {
    shorten.run();
    try {
      return write();
    } catch (err) {
      if ((err as { code?: string }).code === 'SQLITE_BUSY') return busy;
      throw err;
    } finally {
      restore.run();
    }
  };
}
