// Tables whose rows arrive whole through the import: each write replaces the stored row, and an
// identical record writes nothing (so re-importing a file changes nothing). The statements and the
// comparison are the same in every database; each store runs them its own way.
import type { SaveResult } from './interfaces/saved-rows.js';

/** A table written whole: its written columns (`id` and `workspace_id` included) and how a stored row's lifecycle state (status or stage) reads. */
export interface WholeRowTable<State> {
  table: string;
  columns: readonly string[];
  state: (row: Record<string, unknown>) => State;
}

export function wholeRowTable<State>(table: string, columns: readonly string[], state: (row: Record<string, unknown>) => State): WholeRowTable<State> {
  return { table, columns, state };
}

/** True when the stored row already holds exactly these column values. */
function sameColumns(stored: Record<string, unknown>, params: Record<string, unknown>): boolean {
  for (const [column, value] of Object.entries(params)) if (stored[column] !== value) return false;
  return true;
}

/**
 * The stored row by id (`?`), the insert of a whole row (`@column` parameters), and the
 * insert-or-replace of one.
 */
export function wholeRowSaveSql(spec: WholeRowTable<unknown>): { stored: string; insert: string; upsert: string } {
  const { table, columns } = spec;
  const updates = columns.filter((c) => c !== 'id' && c !== 'workspace_id').map((c) => `${c} = excluded.${c}`).join(', ');
  const insert = `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`;
  return {
    stored: `SELECT ${columns.join(', ')} FROM ${table} WHERE id = ?`,
    insert,
    upsert: `${insert}
       ON CONFLICT (id) DO UPDATE SET ${updates}`,
  };
}

/** The state of a stored row, or undefined when there is none. */
export function storedState<State>(spec: WholeRowTable<State>, stored: Record<string, unknown> | undefined): State | undefined {
  return stored === undefined ? undefined : spec.state(stored);
}

/**
 * What saving `params` over the `stored` row (undefined: none) does: whether the row must be
 * written (inserted, or replaced because a column differs) and the result to report.
 */
export function savePlan<State>(
  spec: WholeRowTable<State>,
  stored: Record<string, unknown> | undefined,
  params: Record<string, unknown>,
): { write: boolean; result: SaveResult<State> } {
  const previous = storedState(spec, stored);
  if (stored && sameColumns(stored, params)) return { write: false, result: { outcome: 'unchanged', previous } };
  return { write: true, result: { outcome: stored ? 'updated' : 'inserted', previous } };
}
