// Records arrive whole through the import; the rule that an identical record writes nothing is
// `../whole-row-saves.ts`'s. Reading and writing the row is each database's own (`SavedRows`).
import type { SaveResult } from '../store/interfaces/saved-rows.js';
import { savePlan, storedState, type WholeRowTable } from '../store/whole-row-saves.js';

/** A row as stored: column name → value (text, number or null). */
export type SavedRow = Readonly<Record<string, unknown>>;

/** Reading and writing the rows of one table written whole, by id, inside the import's transaction. */
export interface SavedRows {
  /** The stored row with this id, undefined when there is none. */
  stored(id: string): SavedRow | undefined;
  /** Writes the whole row: a new one (`inserted`), or over the stored one. */
  write(row: SavedRow, inserted: boolean): void;
}

/**
 * Inserts the row, replaces the stored one when any column differs, or leaves it; reports which,
 * and the state the record had before. `isNew` (the id was claimed just now) skips the read.
 */
export function saveRow<State>(rows: SavedRows, table: WholeRowTable<State>, row: SavedRow, isNew = false): SaveResult<State> {
  const plan = savePlan(table, isNew ? undefined : rows.stored(row.id as string), row);
  if (plan.write) rows.write(row, plan.result.outcome === 'inserted');
  return plan.result;
}

/** The state of the stored row, undefined when there is none. */
export function stateOf<State>(rows: SavedRows, table: WholeRowTable<State>, id: string): State | undefined {
  return storedState(table, rows.stored(id));
}
