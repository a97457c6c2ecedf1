import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';

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

export interface DeferredQueue {
  insert: Statement;
  insertEvent: Statement;
  has: Statement;
  page: Statement;
  drop: () => void;
}

export function openDeferredQueue(db: Db): DeferredQueue {
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
 * Runs `body` inside one write transaction held across its awaits. IMMEDIATE takes the write lock
 * now, so the import never fails half way on a busy database; WAL lets readers on other
 * connections keep reading the previous state until COMMIT. A larger page cache while it runs.
 */
export async function inImportTransaction<T>(db: Db, cacheSize: number, body: () => Promise<T>): Promise<T> {
  if (db.inTransaction) throw new Error('this database connection is already inside a transaction');
  const previousCacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = ${cacheSize}`);
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = await body();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  } finally {
    db.pragma(`cache_size = ${previousCacheSize}`);
  }
}
