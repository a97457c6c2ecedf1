import type { Db } from './database.js';
import type { SaveResult } from '../interfaces/saved-rows.js';
import { saveRow, stateOf, type SavedRow, type SavedRows, type SavedTable } from '../import/saved-rows.js';

// Shared by the stores whose records arrive whole through the import (`../import/saved-rows.ts`
// holds the rule: an identical record writes nothing).

/** A JSON column read back; the import wrote it, so it parses. */
export function fromJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

export function fromNullableJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/** The rows of a saved table on one connection: a read by id and an upsert of every column. */
export function sqliteSavedRows(db: Db, table: SavedTable): SavedRows {
  const { columns } = table;
  const updates = columns.filter((c) => c !== 'id' && c !== 'workspace_id').map((c) => `${c} = excluded.${c}`).join(', ');
  const stored = db.prepare(`SELECT ${columns.join(', ')} FROM ${table.table} WHERE id = ?`);
  const upsert = db.prepare(
    `INSERT INTO ${table.table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})
     ON CONFLICT (id) DO UPDATE SET ${updates}`,
  );
  return {
    stored: (id) => stored.get(id) as SavedRow | undefined,
    write: (row) => {
      upsert.run(row);
    },
  };
}

/**
 * The write side of a saved table: `save` inserts the row, replaces it when any column differs, or
 * leaves it; `stateOf` reads the lifecycle state (status or stage) of a stored row.
 */
export function prepareSave<State>(db: Db, table: SavedTable<State>) {
  const rows = sqliteSavedRows(db, table);
  return {
    save: (row: SavedRow): SaveResult<State> => saveRow(rows, table, row),
    stateOf: (id: string): State | undefined => stateOf(rows, table, id),
  };
}
