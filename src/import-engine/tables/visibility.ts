// The visibility tables an import writes whole (migrations 010–012), the same in every database.
// Snapshots are written through their own port (`../record-io.ts`), as tuples.
import { wholeRowTable } from '../../store/whole-row-saves.js';

export const CATEGORIES = wholeRowTable<null>('categories', ['id', 'workspace_id', 'name', 'color'], () => null);

export const COMPETITORS = wholeRowTable<null>('competitors', ['id', 'workspace_id', 'name', 'name_key', 'domain'], () => null);

/** `last_collected_ms` is not among them: an inserted prompt takes its newest answer's time, the answers keep it after. */
export const PROMPTS = wholeRowTable<string>(
  'prompts',
  ['id', 'workspace_id', 'text', 'category_id', 'status', 'created_at', 'updated_at'],
  (row) => row.status as string,
);

/** Snapshots name competitors case-insensitively, so the lower-cased name is the workspace-unique key. */
export function competitorNameKey(name: string): string {
  return name.toLowerCase();
}
