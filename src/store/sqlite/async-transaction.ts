import type { Db } from './database.js';

/**
 * Ends a transaction the caller has begun (BEGIN IMMEDIATE) around asynchronous work: COMMIT when
 * `body` resolves, ROLLBACK when it throws (if SQLite has not rolled back already), rethrowing.
 * better-sqlite3's db.transaction() takes only synchronous functions.
 */
export async function commitOrRollBack<T>(db: Db, body: () => Promise<T>): Promise<T> {
  try {
    const result = await body();
    db.exec('COMMIT');
    return result;
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}
