// Statements and parameters both databases run as written, word for word: the SQLite store
// (sqlite/visibility-cited-pages.ts) and the PostgreSQL one (postgres/visibility-cited-pages.ts) share them.
import type { CitedPagePosition } from './interfaces/visibility-cited-pages.js';

/** Most cited first, then by URL (code-point order): the list's keyset. */
export const CITED_PAGE_ORDER = 'ORDER BY t.citations DESC, u.url LIMIT @limit';
/** After a position of CITED_PAGE_ORDER. */
export const CITED_PAGE_AFTER = 'WHERE t.citations < @after_citations OR (t.citations = @after_citations AND u.url > @after_url)';

/**
 * The content map page at a cited address: the page at the very URL first (true sorts after false,
 * as SQLite's 1 after 0; url is never NULL), then the oldest: one answer when several pages share it.
 */
export const CONTENT_MAP_PAGE_AT = `SELECT id, topic_id FROM pages WHERE workspace_id = @workspace_id AND address = @address
  ORDER BY url = @url DESC, created_at, id LIMIT 1`;
/** The address of a content map page of a workspace. */
export const PAGE_ADDRESS = 'SELECT address FROM pages WHERE id = ? AND workspace_id = ?';

/** The list's named parameters: absent filters are NULL. */
export function citedPageParams(
  filter: { workspaceId: string; fromDay: number; toDay: number; platform?: string | undefined; address?: string | undefined },
  limit: number,
  position?: CitedPagePosition,
): Record<string, unknown> {
  return {
    workspace_id: filter.workspaceId,
    from_day: filter.fromDay,
    to_day: filter.toDay,
    platform: filter.platform ?? null,
    address: filter.address ?? null,
    limit,
    ...(position === undefined ? {} : { after_citations: position[0], after_url: position[1] }),
  };
}
