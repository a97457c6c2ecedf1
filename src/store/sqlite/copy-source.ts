import { openDatabase, type Db } from './database.js';

/**
 * A SQLite file read for a copy into another database (`../postgres/copy-from-sqlite.ts`): migrated
 * as the service opens it, then every read inside one read transaction, so that every table is
 * read as of one instant (WAL keeps that snapshot while others write the file).
 */
export interface CopySource {
  /** Every table but SQLite's own and `excluded`. */
  tables(excluded: string): string[];
  /** The table's columns, in its order. */
  columns(table: string): string[];
  /**
   * The table's rows as arrays of the given columns, read one by one as the caller iterates.
   * INTEGER comes as a bigint (exact past 2^53), REAL as a number, TEXT as a string, BLOB as a
   * Buffer, NULL as null.
   */
  rows(table: string, columns: readonly string[]): Iterable<unknown[]>;
  count(table: string): number;
  /** The greatest number AUTOINCREMENT ever gave in the table, deleted rows included; 0 when none. */
  highestNumberGiven(table: string): number;
  /** Ends the read transaction and closes the file. */
  close(): void;
}

/** `"name"`, as SQLite quotes a name. */
const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Opens (and migrates) `file` and starts its snapshot. Throws as `openDatabase` does. */
export function openCopySource(file: string): CopySource {
  const db: Db = openDatabase(file);
  db.exec('BEGIN');
  // The snapshot starts at the first read: take it now.
  db.prepare('SELECT count(*) FROM sqlite_schema').get();
  const hasSequences = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_sequence'").get() !== undefined;
  return {
    tables: (excluded) => db.prepare(`SELECT name FROM sqlite_schema
      WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> ? ORDER BY name`).pluck().all(excluded) as string[],
    columns: (table) => db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(table) as string[],
    rows: (table, columns) => db.prepare(`SELECT ${columns.map(quoted).join(', ')} FROM ${quoted(table)}`)
      .raw(true).safeIntegers(true).iterate() as Iterable<unknown[]>,
    count: (table) => Number(db.prepare(`SELECT count(*) FROM ${quoted(table)}`).pluck().get()),
    highestNumberGiven: (table) => (hasSequences
      ? Number(db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck().get(table) ?? 0)
      : 0),
    close: () => {
      try {
        if (db.inTransaction) db.exec('ROLLBACK');
      } finally {
        db.close();
      }
    },
  };
}
