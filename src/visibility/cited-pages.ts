import type { components } from '../../generated/openapi.js';
import { DAY_MS, periodsFor, type RangeValue } from '../analytics/periods.js';
import { PLATFORMS, type Platform } from '../analytics/platforms.js';
import type { Cursors, CursorScope } from '../pagination/cursor.js';
import type { Store } from '../store/index.js';
import { isOwnHost } from '../store/domains.js';

export type CitedPageList = components['schemas']['CitedPageList'];

export interface CitedPageListRequest {
  workspaceId: string;
  range: RangeValue;
  platform?: Platform | undefined;
  /** Only the URLs at the page address of this content-map page. */
  contentMapPageId?: string | undefined;
  limit: number;
  cursor?: string | undefined;
  now: Date;
}

/**
 * One page of the pages cited over the range, most cited first, each tied to the content-map page
 * at its page address (whatever its domain: a content-map page is the workspace's own). The cursor
 * carries the walk's "today", so a walk that crosses midnight UTC keeps reading the period it
 * started on.
 */
export async function readCitedPages(store: Store, cursors: Cursors, request: CitedPageListRequest): Promise<CitedPageList> {
  const { workspaceId } = request;
  const contentMapPageId = request.contentMapPageId?.toLowerCase();
  const scope: CursorScope = {
    list: 'listCitedPages',
    workspaceId,
    filters: { range: request.range, platform: request.platform, content_map_page: contentMapPageId },
  };
  const after = request.cursor === undefined ? undefined : cursors.decode(scope, request.cursor, ['day', 'integer', 'text']);
  const periods = periodsFor(request.range, after ? new Date(after[0] * DAY_MS) : request.now);
  // null: the workspace has no such page, or its URL has no address; either way it is cited nowhere.
  const address = contentMapPageId === undefined ? undefined : ((await store.citedPages.contentMapPageAddress(workspaceId, contentMapPageId)) ?? null);
  const rows = address === null ? [] : await store.citedPages.list(
    { workspaceId, fromDay: periods.currentStart, toDay: periods.today, platform: request.platform, address },
    request.limit + 1,
    after ? [after[1], after[2]] : undefined,
  );
  const page = cursors.takePage(rows, request.limit, scope, (r) => [periods.today, r.citations, r.url]);
  const domains = (await store.workspaceProfile.getProfile(workspaceId))?.domains ?? [];
  return {
    items: await Promise.all(page.rows.map(async (r) => {
      const cited = new Set(r.platforms.split(','));
      const mapped = await store.citedPages.contentMapPage(workspaceId, r.url);
      return {
        url: r.url,
        domain: r.domain,
        title: r.title,
        citations: r.citations,
        prompts: r.prompts,
        platforms: PLATFORMS.filter((p) => cited.has(p)),
        is_own: isOwnHost(r.domain, domains),
        content_map_page_id: mapped?.id ?? null,
        topic_id: mapped?.topic_id ?? null,
      };
    })),
    next_cursor: page.next_cursor,
  };
}
