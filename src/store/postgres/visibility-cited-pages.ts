import type { CitedPagePosition, CitedPageRow, CitedPageStore, ContentMapPageRef } from '../interfaces/visibility-cited-pages.js';
import { pageAddress } from '../page-address.js';
import { CITED_PAGE_AFTER, CITED_PAGE_ORDER, CONTENT_MAP_PAGE_AT, PAGE_ADDRESS, citedPageParams } from '../cited-page-statements.js';
import { row, rows, value, type Queryable } from './query.js';

// The aggregate of `../sqlite/visibility-cited-pages.ts` (NULL filters cast where tested for
// NULL: PostgreSQL must know a parameter's type from its first use). SQLite's group_concat(DISTINCT) lists
// the platforms in no promised order (the interface says so, and readers split them into a set);
// here they come sorted, the one order string_agg(DISTINCT) takes.
const AGGREGATE = `
  SELECT u.url, u.domain, u.title, t.citations, t.prompts, t.platforms
  FROM (
    SELECT url_id, sum(citations) AS citations, count(DISTINCT prompt_id) AS prompts,
      string_agg(DISTINCT platform, ',' ORDER BY platform) AS platforms
    FROM cited_page_daily
    WHERE workspace_id = @workspace_id AND day BETWEEN @from_day AND @to_day AND (CAST(@platform AS TEXT) IS NULL OR platform = @platform)
      AND (CAST(@address AS TEXT) IS NULL OR url_id IN (SELECT id FROM cited_urls WHERE workspace_id = @workspace_id AND address = @address))
    GROUP BY url_id
  ) AS t JOIN cited_urls u ON u.id = t.url_id`;

const STATEMENTS = {
  first: `${AGGREGATE} ${CITED_PAGE_ORDER}`,
  after: `${AGGREGATE} ${CITED_PAGE_AFTER} ${CITED_PAGE_ORDER}`,
  contentMapPage: CONTENT_MAP_PAGE_AT,
  pageAddress: PAGE_ADDRESS,
};

/** Reads of the cited pages: aggregates of the daily rollup over a day range. */
export function createPostgresCitedPageStore(db: Queryable): CitedPageStore {
  return {
    list(
      filter: { workspaceId: string; fromDay: number; toDay: number; platform?: string | undefined; address?: string | undefined },
      limit: number,
      position?: CitedPagePosition,
    ): Promise<CitedPageRow[]> {
      return rows<CitedPageRow>(db, position === undefined ? STATEMENTS.first : STATEMENTS.after, citedPageParams(filter, limit, position));
    },
    async contentMapPage(workspaceId: string, url: string): Promise<ContentMapPageRef | undefined> {
      const address = pageAddress(url);
      if (address === null) return undefined;
      return row<ContentMapPageRef>(db, STATEMENTS.contentMapPage, { workspace_id: workspaceId, url, address });
    },
    contentMapPageAddress(workspaceId: string, pageId: string): Promise<string | null | undefined> {
      return value<string | null>(db, STATEMENTS.pageAddress, [pageId, workspaceId]);
    },
  };
}
