import type { Statement } from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WriteLockWait } from '../../interfaces/imports.js';
import { DatabaseBusyError } from '../../errors.js';
import { isDatabaseBusy, withBusyTimeout, type Db } from '../database.js';
import { commitOrRollBack } from '../async-transaction.js';

// The first try rides over the short writes of a running server; after that the import polls
// without blocking the thread, so a process that also serves requests keeps answering.
const FIRST_TRY_WAIT_MS = 200;
const RETRY_EVERY_MS = 100;

/**
 * The import's bookkeeping tables: the global id ledger (`record_ids`) and the temporary queue of
 * records (and events) that wait for the end of the file. The queue lives in SQLite, not in memory, so a file
 * with many forward references keeps memory bounded.
 */
export function createRecordIdStatements(db: Db): { claim: Statement; owner: Statement; release: Statement } {
  return {
    claim: db.prepare('INSERT INTO record_ids (id, workspace_id, type) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING'),
    owner: db.prepare('SELECT workspace_id, type FROM record_ids WHERE id = ?').raw(),
    // A deleted record's id is free again: importing it later makes a new record.
    release: db.prepare('DELETE FROM record_ids WHERE id = ?'),
  };
}

export interface DeferredQueueStatements {
  insert: Statement;
  insertEvent: Statement;
  has: Statement;
  page: Statement;
  drop: () => void;
}

export function openDeferredQueue(db: Db): DeferredQueueStatements {
  db.exec(
    `CREATE TEMP TABLE IF NOT EXISTS import_deferred (seq INTEGER PRIMARY KEY, line INTEGER NOT NULL, id TEXT NOT NULL, text TEXT NOT NULL, event TEXT);
     CREATE INDEX IF NOT EXISTS temp.import_deferred_by_id ON import_deferred (id);
     DELETE FROM temp.import_deferred;`,
  );
  return {
    insert: db.prepare('INSERT INTO temp.import_deferred (line, id, text) VALUES (?, ?, ?)'),
    // An event of a record already written, built when the queue reaches it (`text` is empty).
    insertEvent: db.prepare("INSERT INTO temp.import_deferred (line, id, text, event) VALUES (?, ?, '', ?)"),
    has: db.prepare('SELECT 1 FROM temp.import_deferred WHERE id = ? LIMIT 1').pluck(),
    page: db.prepare('SELECT seq, line, id, text, event FROM temp.import_deferred WHERE seq > ? ORDER BY seq LIMIT ?').raw(),
    drop: () => db.exec('DROP TABLE temp.import_deferred'),
  };
}

/**
 * Begins the import's write transaction. Another import holds the lock for its whole file, which
 * may be minutes: waiting for it is the import's turn coming, not a failure, so this waits as long
 * as it takes (or refuses at once when `lock.wait` is false) instead of giving up after the
 * connection's busy timeout.
 */
async function beginImmediate(db: Db, lock: WriteLockWait): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      withBusyTimeout(db, attempt === 0 ? FIRST_TRY_WAIT_MS : 0, () => db.exec('BEGIN IMMEDIATE'));
      return;
    } catch (err) {
      if (!isDatabaseBusy(err)) throw err;
    }
    if (lock.wait === false) throw new DatabaseBusyError('another import is running');
    if (attempt === 0) lock.onWaiting?.();
    await sleep(RETRY_EVERY_MS);
  }
}

/**
 * Runs `body` inside one write transaction held across its awaits. IMMEDIATE takes the write lock
 * before the first line, so the import never fails half way on a busy database; WAL lets readers
 * on other connections keep reading the previous state until COMMIT. A larger page cache while it
 * runs.
 */
export async function inImportTransaction<T>(db: Db, cacheSize: number, body: () => Promise<T>, lock: WriteLockWait = {}): Promise<T> {
  if (db.inTransaction) throw new Error('this database connection is already inside a transaction');
  const previousCacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = ${cacheSize}`);
  try {
    await beginImmediate(db, lock);
  } catch (err) {
    db.pragma(`cache_size = ${previousCacheSize}`);
    throw err;
  }
  try {
    return await commitOrRollBack(db, body);
  } finally {
    db.pragma(`cache_size = ${previousCacheSize}`);
  }
}
