import type { Db } from './database.js';
import type { SaveResult } from '../interfaces/saved-rows.js';

// Shared by the stores whose records arrive whole through the import: each write replaces the
// stored row, and an identical record writes nothing (so re-importing a file changes nothing).

/** True when the stored row already holds exactly these column values. */
export function sameColumns(stored: Record<string, unknown>, params: Record<string, unknown>): boolean {
  for (const [column, value] of Object.entries(params)) if (stored[column] !== value) return false;
  return true;
}

/** A JSON column read back; the import wrote it, so it parses. */
export function fromJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

export function fromNullableJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

export function toNullableJson(value: unknown): string | null {
  return value === null ? null : JSON.stringify(value);
}

/**
 * The write side of a table whose rows are replaced whole: `save` inserts the row, replaces it
 * when any column differs, or leaves it; `stateOf` reads the lifecycle state (status or stage) of
 * a stored row. `columns` lists every written column, `id` and `workspace_id` included.
 */
export function prepareSave<State>(db: Db, table: string, columns: readonly string[], state: (row: Record<string, unknown>) => State) {
  const updates = columns.filter((c) => c !== 'id' && c !== 'workspace_id').map((c) => `${c} = excluded.${c}`).join(', ');
  const statements = {
    stored: db.prepare(`SELECT ${columns.join(', ')} FROM ${table} WHERE id = ?`),
    upsert: db.prepare(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${updates}`,
    ),
  };
  return {
    save(params: Record<string, unknown>): SaveResult<State> {
      const stored = statements.stored.get(params.id) as Record<string, unknown> | undefined;
      const previous = stored === undefined ? undefined : state(stored);
      if (stored && sameColumns(stored, params)) return { outcome: 'unchanged', previous };
      statements.upsert.run(params);
      return { outcome: stored ? 'updated' : 'inserted', previous };
    },
    stateOf(id: string): State | undefined {
      const stored = statements.stored.get(id) as Record<string, unknown> | undefined;
      return stored === undefined ? undefined : state(stored);
    },
  };
}
