// The stored form of the visibility records (migrations 010–012): what the import writes, the same in
// every database. Snapshots are written through their own port (`../record-io.ts`), as tuples.
import type { SavedTable } from '../saved-rows.js';

export const CATEGORIES: SavedTable<null> = {
  table: 'categories',
  columns: ['id', 'workspace_id', 'name', 'color'],
  state: () => null,
};

export const COMPETITORS: SavedTable<null> = {
  table: 'competitors',
  columns: ['id', 'workspace_id', 'name', 'name_key', 'domain'],
  state: () => null,
};

/** `last_collected_ms` is not among them: an inserted prompt takes its newest answer's time, the answers keep it after. */
export const PROMPTS: SavedTable<string> = {
  table: 'prompts',
  columns: ['id', 'workspace_id', 'text', 'category_id', 'status', 'created_at', 'updated_at'],
  state: (row) => row.status as string,
};

/** Snapshots name competitors case-insensitively, so the lower-cased name is the workspace-unique key. */
export function competitorNameKey(name: string): string {
  return name.toLowerCase();
}
