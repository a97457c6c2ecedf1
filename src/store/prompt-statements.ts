// Statements and parameters both databases run as written, word for word: the SQLite store
// (sqlite/prompts.ts) and the PostgreSQL one (postgres/prompts.ts) share them.
import type { PromptListFilters } from './interfaces/prompts.js';

/** What a prompt read selects and joins: the prompt with its category's name and color. */
export const PROMPT_SELECT = `SELECT p.id, p.text, p.category_id, c.name AS category_name, c.color AS category_color,
  p.status, p.created_at, p.updated_at, p.last_collected_ms
  FROM prompts p LEFT JOIN categories c ON c.id = p.category_id`;

/** One prompt of a workspace: another workspace's prompt is as absent as an unknown one. */
export const PROMPT_BY_ID = `${PROMPT_SELECT} WHERE p.id = @id AND p.workspace_id = @workspace_id`;

/** The list's named parameters: absent filters are NULL; the search text is lower-cased as the text it is looked for in. */
export function promptListParams(filters: PromptListFilters): Record<string, unknown> {
  return {
    workspace_id: filters.workspaceId,
    status: filters.status ?? null,
    category_id: filters.categoryId ?? null,
    q: filters.q === undefined ? null : filters.q.toLowerCase(),
  };
}
