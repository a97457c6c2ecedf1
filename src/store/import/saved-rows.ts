// Records arrive whole through the import: each write replaces the stored row, and an identical
// record writes nothing (so re-importing a file changes nothing). The rule is the same in every
// database; reading and writing the row is each database's own (`SavedRows`).
import type { SaveResult } from '../interfaces/saved-rows.js';

/** A row as stored: column name → value (text, number or null), `id` its key. */
export type SavedRow = { readonly id: string } & Readonly<Record<string, unknown>>;

/**
 * A table whose rows an import replaces whole: its name, every column it writes (`id` and
 * `workspace_id` included, in the table's order) and the lifecycle state (status or stage) a row is
 * in, whose change is a webhook event.
 */
export interface SavedTable<State = unknown> {
  table: string;
  columns: readonly string[];
  state(row: SavedRow): State;
}

/** Reading and writing the rows of one saved table, inside the import's transaction. */
export interface SavedRows {
  /** The stored row with this id, undefined when there is none. */
  stored(id: string): SavedRow | undefined;
  /** Writes the whole row: a new one (`inserted`), or over the stored one. */
  write(row: SavedRow, inserted: boolean): void;
}

/** True when the stored row already holds exactly these column values. */
export function sameColumns(stored: Readonly<Record<string, unknown>>, params: Readonly<Record<string, unknown>>): boolean {
  for (const [column, value] of Object.entries(params)) if (stored[column] !== value) return false;
  return true;
}

/**
 * Inserts the row, replaces the stored one when any column differs, or leaves it; reports which,
 * and the state the record had before. `isNew` (the id was claimed just now) skips the read.
 */
export function saveRow<State>(rows: SavedRows, table: SavedTable<State>, row: SavedRow, isNew = false): SaveResult<State> {
  const stored = isNew ? undefined : rows.stored(row.id);
  const previous = stored === undefined ? undefined : table.state(stored);
  if (stored && sameColumns(stored, row)) return { outcome: 'unchanged', previous };
  rows.write(row, stored === undefined);
  return { outcome: stored ? 'updated' : 'inserted', previous };
}

/** The state of a stored row, undefined when there is none. */
export function stateOf<State>(rows: SavedRows, table: SavedTable<State>, id: string): State | undefined {
  const stored = rows.stored(id);
  return stored === undefined ? undefined : table.state(stored);
}

/** A JSON column's text; null stays null. */
export function nullableJson(value: unknown): string | null {
  return value === null ? null : JSON.stringify(value);
}
