import type { RecordPage } from '../interfaces/list-pages.js';
import type { PromptListFilters, PromptStore } from '../interfaces/prompts.js';
import type { PromptRecord } from '../interfaces/visibility-rows.js';
import type { Db } from './database.js';
import { prepareRecordList } from './keyset.js';
import { promised } from './promised.js';

const COLUMNS = `p.id, p.text, p.category_id, c.name AS category_name, c.color AS category_color,
  p.status, p.created_at, p.updated_at, p.last_collected_ms`;

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
    get: db.prepare(
      `SELECT ${COLUMNS} FROM prompts p LEFT JOIN categories c ON c.id = p.category_id
       WHERE p.id = @id AND p.workspace_id = @workspace_id`,
    ),
  };
  const list = prepareRecordList(db, {
    select: `SELECT ${COLUMNS} FROM prompts p LEFT JOIN categories c ON c.id = p.category_id`,
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
      return list<PromptRecord>({
        workspace_id: filters.workspaceId,
        status: filters.status ?? null,
        category_id: filters.categoryId ?? null,
        q: filters.q === undefined ? null : filters.q.toLowerCase(),
      }, page);
    },
  });
}
