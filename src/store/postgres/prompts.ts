import type { RecordPage } from '../interfaces/list-pages.js';
import type { PromptListFilters, PromptStore } from '../interfaces/prompts.js';
import type { PromptRecord } from '../interfaces/visibility-rows.js';
import { PROMPT_BY_ID, PROMPT_SELECT, promptListParams } from '../prompt-statements.js';
import { prepareRecordList } from './keyset.js';
import { row, type Queryable } from './query.js';

// Absent filters are passed as NULL, so one statement serves every combination (cast where tested
// for NULL: PostgreSQL must know a parameter's type from its first use, and `IS NULL` alone does
// not say). The search folds case with ICU's root locale (the "und-x-icu" collation), the Unicode
// mapping of the JavaScript toLowerCase that SQLite's statement calls; lower() under the columns'
// "C" collation would fold ASCII letters only.
const FILTERS = `p.workspace_id = @workspace_id
  AND (CAST(@status AS TEXT) IS NULL OR p.status = @status)
  AND (CAST(@category_id AS TEXT) IS NULL OR p.category_id = @category_id)
  AND (CAST(@q AS TEXT) IS NULL OR strpos(lower(p.text COLLATE "und-x-icu"), @q) > 0)`;

/** Prompts of a workspace, read by id or in pages: the same rows, in the same order, as `../sqlite/prompts.ts`. */
export function createPostgresPromptStore(db: Queryable): PromptStore {
  const list = prepareRecordList(db, { select: PROMPT_SELECT, where: FILTERS, createdAt: 'p.created_at', updatedAt: 'p.updated_at', id: 'p.id' });
  return {
    get(workspaceId: string, id: string): Promise<PromptRecord | undefined> {
      return row<PromptRecord>(db, PROMPT_BY_ID, { id, workspace_id: workspaceId });
    },
    async list(filters: PromptListFilters, page: RecordPage): Promise<PromptRecord[]> {
      // PostgreSQL text never holds U+0000 (and refuses it as a parameter), so no prompt contains
      // a search that does: the page is empty, as SQLite finds it for every text without one.
      if (filters.q?.includes('\u0000')) return [];
      return list<PromptRecord>(promptListParams(filters), page);
    },
  };
}
