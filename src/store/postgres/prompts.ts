import type { RecordPage } from '../interfaces/list-pages.js';
import type { PromptListFilters, PromptStore } from '../interfaces/prompts.js';
import type { PromptRecord } from '../interfaces/visibility-rows.js';
import { PROMPT_BY_ID, PROMPT_SELECT, promptListParams } from '../sql/prompts.js';
import { recordList } from './keyset.js';
import type { PostgresPool } from './pool.js';
import { row } from './query.js';

// Absent filters are passed as NULL, so one statement serves every combination (cast where first
// tested: PostgreSQL cannot tell the type of a bare `$n IS NULL`). The search folds case with
// ICU's root locale (the "und-x-icu" collation), the Unicode mapping of the JavaScript
// toLowerCase that SQLite's statement calls; lower() under the columns' "C" collation would fold
// ASCII letters only.
const FILTERS = `p.workspace_id = @workspace_id
  AND (@status::text IS NULL OR p.status = @status)
  AND (@category_id::text IS NULL OR p.category_id = @category_id)
  AND (@q::text IS NULL OR strpos(lower(p.text COLLATE "und-x-icu"), @q) > 0)`;

/** Prompts of a workspace, read by id or in pages: the same rows, in the same order, as `../sqlite/prompts.ts`. */
export function createPostgresPromptStore(pool: PostgresPool): PromptStore {
  const list = recordList(pool, { select: PROMPT_SELECT, where: FILTERS, createdAt: 'p.created_at', updatedAt: 'p.updated_at', id: 'p.id' });
  return {
    get(workspaceId: string, id: string): Promise<PromptRecord | undefined> {
      return row<PromptRecord>(pool, PROMPT_BY_ID, { id, workspace_id: workspaceId });
    },
    list(filters: PromptListFilters, page: RecordPage): Promise<PromptRecord[]> {
      return list<PromptRecord>(promptListParams(filters), page);
    },
  };
}
