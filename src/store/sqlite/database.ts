import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { applyMigrations } from './migrate.js';
import { DatabaseBusyError } from '../errors.js';
import { pageAddress } from '../page-address.js';

export type Db = Database.Database;

/**
 * How long a write on a fresh connection waits for a lock another connection holds. Commands of
 * the command line use it as it is; the running server shortens it (`SERVER_WRITE_WAIT_MS`).
 */
const OPEN_BUSY_TIMEOUT_MS = 5_000;

/**
 * How long a write of the running server waits for the lock before giving up: an import in
 * another process may hold it for a whole file, and better-sqlite3 waits on the event loop's
 * thread, so a longer wait would stall every other request. A request whose write gives up
 * answers 503 (5030) with Retry-After (see the contract's ServiceUnavailable response).
 */
export const SERVER_WRITE_WAIT_MS = 50;

/**
 * Opens (creating if needed) the SQLite file and brings its schema up to date. WAL lets the HTTP
 * server read while an import or the CLI writes; busy_timeout makes concurrent writers wait
 * instead of failing.
 */
export function openDatabase(file: string): Db {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  // First, so that switching a new file to WAL waits for a concurrent opener instead of failing.
  setBusyTimeout(db, OPEN_BUSY_TIMEOUT_MS);
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

/** True for DatabaseBusyError and for SQLite's SQLITE_BUSY and its extended codes (SQLITE_BUSY_SNAPSHOT, ...). */
export function isDatabaseBusy(err: unknown): boolean {
  if (err instanceof DatabaseBusyError) return true;
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

export function setBusyTimeout(db: Db, waitMs: number): void {
  // Through db.pragma every time: SQLite applies `PRAGMA busy_timeout` when the statement is
  // compiled, so re-running a statement prepared once changes nothing.
  db.pragma(`busy_timeout = ${Math.max(0, Math.round(waitMs))}`);
}

/**
 * Runs `write` with the connection's busy timeout set to `waitMs`, then puts the previous one
 * back. Nothing else can run on the connection in between: better-sqlite3 is synchronous.
 */
export function withBusyTimeout<T>(db: Db, waitMs: number, write: () => T): T {
  const normal = db.pragma('busy_timeout', { simple: true }) as number;
  setBusyTimeout(db, waitMs);
  try {
    return write();
  } finally {
    setBusyTimeout(db, normal);
  }
}

/**
 * Runs `write` now if the write lock is free, without waiting for it: a writer in the background
 * (the delivery loop, the recorders of key use and request counts) shares the connection with the
 * requests, and better-sqlite3 waits on the event loop's thread, so waiting would freeze the
 * service. Throws DatabaseBusyError when another connection holds the lock, or when this
 * connection is inside another unit of work (an import run in this process): the write would
 * commit or roll back with it.
 */
export function writeWithoutWaiting<T>(db: Db, write: () => T): T {
  if (db.inTransaction) throw new DatabaseBusyError('the connection is inside another transaction');
  try {
    return withBusyTimeout(db, 0, write);
  } catch (err) {
    if (isDatabaseBusy(err)) throw new DatabaseBusyError();
    throw err;
  }
}

/**
 * Whether another connection holds the write lock, found without waiting for it: the lock is
 * taken for an instant when it is free (and given back), refused at once when it is not. For
 * watching an import from outside (tests, benchmarks); `db` must wait 0 ms (`{ timeout: 0 }`).
 */
export function writeLockHeldElsewhere(db: Db): boolean {
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return false;
  } catch (err) {
    if (isDatabaseBusy(err)) return true;
    throw err;
  }
}
