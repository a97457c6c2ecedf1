import type { Db } from './database.js';
import type { PromptRecord, PromptStatus } from './visibility-rows.js';

export interface PromptListFilters {
  workspaceId: string;
  status?: PromptStatus | undefined;
  categoryId?: string | undefined;
  /** Case-insensitive substring of the text. */
  q?: string | undefined;
}

/** The sort keys of the prompt list: (created_at, id). */
export type PromptPosition = readonly [createdAt: string, id: string];

const COLUMNS = `p.id, p.text, p.category_id, c.name AS category_name, c.color AS category_color,
  p.status, p.created_at, p.last_collected_ms`;

// Filters that are absent are passed as NULL, so one statement serves every combination.
const FILTERS = `p.workspace_id = @workspace_id
  AND (@status IS NULL OR p.status = @status)
  AND (@category_id IS NULL OR p.category_id = @category_id)
  AND (@q IS NULL OR instr(unicode_lower(p.text), @q) > 0)`;

/** Prompts of a workspace, read by id or in pages. */
export function createPromptStore(db: Db) {
  // SQLite's lower() and LIKE fold ASCII only; the API promises Unicode case-insensitive search.
  db.function('unicode_lower', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? text.toLowerCase() : text));
  const statements = {
    get: db.prepare(
      `SELECT ${COLUMNS} FROM prompts p LEFT JOIN categories c ON c.id = p.category_id
       WHERE p.id = @id AND p.workspace_id = @workspace_id`,
    ),
    firstPage: db.prepare(
      `SELECT ${COLUMNS} FROM prompts p LEFT JOIN categories c ON c.id = p.category_id
       WHERE ${FILTERS}
       ORDER BY p.created_at, p.id LIMIT @limit`,
    ),
    // The row-value comparison lets SQLite seek the (workspace_id, created_at, id) index.
    pageAfter: db.prepare(
      `SELECT ${COLUMNS} FROM prompts p LEFT JOIN categories c ON c.id = p.category_id
       WHERE ${FILTERS} AND (p.created_at, p.id) > (@after_created_at, @after_id)
       ORDER BY p.created_at, p.id LIMIT @limit`,
    ),
  };

  return {
    /** The prompt if it belongs to the workspace; another workspace's prompt is as absent as an unknown one. */
    get(workspaceId: string, id: string): PromptRecord | undefined {
      return statements.get.get({ id, workspace_id: workspaceId }) as PromptRecord | undefined;
    },
    /** Up to `limit` prompts after `after` (or from the start) in (created_at, id) order. */
    list(filters: PromptListFilters, limit: number, after?: PromptPosition): PromptRecord[] {
      const params = {
        workspace_id: filters.workspaceId,
        status: filters.status ?? null,
        category_id: filters.categoryId ?? null,
        q: filters.q === undefined ? null : filters.q.toLowerCase(),
        limit,
      };
      if (after === undefined) return statements.firstPage.all(params) as PromptRecord[];
      return statements.pageAfter.all({ ...params, after_created_at: after[0], after_id: after[1] }) as PromptRecord[];
    },
  };
}

export type PromptStore = ReturnType<typeof createPromptStore>;
