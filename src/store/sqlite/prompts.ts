import type { RecordPage } from '../interfaces/list-pages.js';
import type { PromptListFilters, PromptStore } from '../interfaces/prompts.js';
import type { PromptRecord } from '../interfaces/visibility-rows.js';
import { PROMPT_BY_ID, PROMPT_SELECT, promptListParams } from '../prompt-statements.js';
import type { Db } from './database.js';
import { prepareRecordList } from './keyset.js';
import { promised } from './promised.js';

// Filters that are absent are passed as NULL, so one statement serves every combination.
const FILTERS = `p.workspace_id = @workspace_id
  AND (@status IS NULL OR p.status = @status)
  AND (@category_id IS NULL OR p.category_id = @category_id)
  AND (@q IS NULL OR instr(unicode_lower(p.text), @q) > 0)`;

/** Prompts of a workspace, read by id or in pages. */
export function createPromptStore(db: Db): PromptStore {
  // SQLite's lower() and LIKE fold ASCII only; the API promises Unicode case-insensitive search.
  db.function('unicode_lower', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? text.toLowerCase() : text));
  const statements = {
    get: db.prepare(PROMPT_BY_ID),
  };
  const list = prepareRecordList(db, {
    select: PROMPT_SELECT,
    where: FILTERS,
    createdAt: 'p.created_at',
    updatedAt: 'p.updated_at',
    id: 'p.id',
  });

  return promised({
    /** The prompt if it belongs to the workspace; another workspace's prompt is as absent as an unknown one. */
    get(workspaceId: string, id: string): PromptRecord | undefined {
      return statements.get.get({ id, workspace_id: workspaceId }) as PromptRecord | undefined;
    },
    /** One page of prompts in creation or update order. */
    list(filters: PromptListFilters, page: RecordPage): PromptRecord[] {
      return list<PromptRecord>(promptListParams(filters), page);
    },
  });
}
