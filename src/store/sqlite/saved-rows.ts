import type { Db } from './database.js';
import type { SaveResult } from '../interfaces/saved-rows.js';
import { savePlan, storedState, wholeRowSaveSql, type WholeRowTable } from '../whole-row-saves.js';
import type { SavedRow, SavedRows } from '../../import-engine/saved-rows.js';

/**
 * The write side of a table whose rows are replaced whole (`../whole-row-saves.ts`): `save` inserts
 * the row, replaces it when any column differs, or leaves it; `stateOf` reads the lifecycle state
 * (status or stage) of a stored row.
 */
export function prepareSave<State>(db: Db, spec: WholeRowTable<State>) {
  const sql = wholeRowSaveSql(spec);
  const statements = { stored: db.prepare(sql.stored), upsert: db.prepare(sql.upsert) };
  return {
    save(params: Record<string, unknown>): SaveResult<State> {
      const plan = savePlan(spec, statements.stored.get(params.id) as Record<string, unknown> | undefined, params);
      if (plan.write) statements.upsert.run(params);
      return plan.result;
    },
    stateOf(id: string): State | undefined {
      return storedState(spec, statements.stored.get(id) as Record<string, unknown> | undefined);
    },
  };
}

/** The rows of a table written whole, for the import (`../../import-engine/saved-rows.ts`): a read by id and the upsert of every column. */
export function sqliteSavedRows(db: Db, spec: WholeRowTable<unknown>): SavedRows {
  const sql = wholeRowSaveSql(spec);
  const stored = db.prepare(sql.stored);
  const upsert = db.prepare(sql.upsert);
  return {
    stored: (id) => stored.get(id) as SavedRow | undefined,
    write: (row) => {
      upsert.run(row);
    },
  };
}
