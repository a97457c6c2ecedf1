import type { Statement } from 'better-sqlite3';
import type { Db } from '../database.js';

/**
 * The statements a deletion in the import needs, over the table of a record type and the columns
 * that refer to it. Table and column names come from the record types' declarations, never from
 * input; each statement is prepared once per import.
 */
export function createRecordRemovalStatements(db: Db) {
  const statements = new Map<string, Statement>();
  const prepared = (sql: string): Statement => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  return {
    /** Deletes the row `id` of `table`. */
    remove(table: string, id: string): void {
      prepared(`DELETE FROM ${table} WHERE id = ?`).run(id);
    },
    /** Up to `limit` ids of the rows of `table` whose `column` refers to `id`. */
    referrers(table: string, column: string, id: string, limit: number): string[] {
      return prepared(`SELECT id FROM ${table} WHERE ${column} = ? LIMIT ?`).pluck().all(id, limit) as string[];
    },
  };
}
