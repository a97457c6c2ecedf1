import type { CitedPagePosition, CitedPageRow, CitedPageStore, ContentMapPageRef } from '../interfaces/visibility-cited-pages.js';
import { hostOf } from '../domains.js';
import { pageAddress } from '../page-address.js';
import { CITED_PAGE_AFTER, CITED_PAGE_ORDER, CONTENT_MAP_PAGE_AT, PAGE_ADDRESS, citedPageParams } from '../cited-page-statements.js';
import type { Db } from './database.js';
import { promised } from './promised.js';
import type { CitedPageSink } from '../../import-engine/cited-page-rollup.js';

const URL_ID_CACHE_LIMIT = 100_000;

/**
 * Writes the cited-page rollup the snapshot import sums (`../../import-engine/cited-page-rollup.ts`) inside
 * the import's transaction: each URL's row (numbered on first sight, its title kept when newer),
 * then each day's citations, a row that falls to zero deleted.
 */
export function createCitedPageSink(db: Db, workspaceId: string): CitedPageSink {
  const upsertUrl = db.prepare(
    `INSERT INTO cited_urls (workspace_id, url, domain, address, title, title_collected_ms) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id, url) DO UPDATE SET
       title = CASE WHEN excluded.title IS NOT NULL AND excluded.title_collected_ms >= coalesce(cited_urls.title_collected_ms, -1)
                    THEN excluded.title ELSE cited_urls.title END,
       title_collected_ms = CASE WHEN excluded.title IS NOT NULL AND excluded.title_collected_ms >= coalesce(cited_urls.title_collected_ms, -1)
                    THEN excluded.title_collected_ms ELSE cited_urls.title_collected_ms END
     RETURNING id`,
  ).pluck();
  const addDaily = db.prepare(
    `INSERT INTO cited_page_daily (workspace_id, day, url_id, prompt_id, platform, citations) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (workspace_id, day, url_id, prompt_id, platform) DO UPDATE SET citations = citations + excluded.citations`,
  );
  const pruneDaily = db.prepare(
    'DELETE FROM cited_page_daily WHERE workspace_id = ? AND day = ? AND url_id = ? AND prompt_id = ? AND platform = ? AND citations <= 0',
  );
  const urlIds = new Map<string, number>();
  return {
    write(urls, deltas) {
      for (const { url, title } of urls) {
        // A URL already numbered in this import needs a write only for its title.
        if (urlIds.has(url) && !title) continue;
        const id = upsertUrl.get(workspaceId, url, hostOf(url), pageAddress(url), title?.title ?? null, title?.ms ?? null) as number;
        if (urlIds.size >= URL_ID_CACHE_LIMIT) urlIds.clear();
        urlIds.set(url, id);
      }
      for (const d of deltas) {
        let id = urlIds.get(d.url);
        if (id === undefined) {
          id = upsertUrl.get(workspaceId, d.url, hostOf(d.url), pageAddress(d.url), null, null) as number;
          urlIds.set(d.url, id);
        }
        addDaily.run(workspaceId, d.day, id, d.promptId, d.platform, d.citations);
        if (d.citations < 0) pruneDaily.run(workspaceId, d.day, id, d.promptId, d.platform);
      }
    },
  };
}

/** Reads of the cited pages: aggregates of the daily rollup over a day range. */
export function createCitedPageStore(db: Db): CitedPageStore {
  const aggregate = `
    SELECT u.url, u.domain, u.title, t.citations, t.prompts, t.platforms
    FROM (
      SELECT url_id, sum(citations) AS citations, count(DISTINCT prompt_id) AS prompts, group_concat(DISTINCT platform) AS platforms
      FROM cited_page_daily
      WHERE workspace_id = @workspace_id AND day BETWEEN @from_day AND @to_day AND (@platform IS NULL OR platform = @platform)
        AND (@address IS NULL OR url_id IN (SELECT id FROM cited_urls WHERE workspace_id = @workspace_id AND address = @address))
      GROUP BY url_id
    ) t JOIN cited_urls u ON u.id = t.url_id`;
  const statements = {
    first: db.prepare(`${aggregate} ${CITED_PAGE_ORDER}`),
    after: db.prepare(`${aggregate} ${CITED_PAGE_AFTER} ${CITED_PAGE_ORDER}`),
    contentMapPage: db.prepare(CONTENT_MAP_PAGE_AT),
    pageAddress: db.prepare(PAGE_ADDRESS).pluck(),
  };

  return promised({
    /**
     * Pages cited on days [fromDay, toDay] (of one platform, and at one page address, when given),
     * most cited first, after `position`.
     */
    list(
      filter: { workspaceId: string; fromDay: number; toDay: number; platform?: string | undefined; address?: string | undefined },
      limit: number,
      position?: CitedPagePosition,
    ): CitedPageRow[] {
      return (position === undefined ? statements.first : statements.after).all(citedPageParams(filter, limit, position)) as CitedPageRow[];
    },
    /** The workspace's content-map page at the page address of `url` (preferring `url` itself), if any. */
    contentMapPage(workspaceId: string, url: string): ContentMapPageRef | undefined {
      const address = pageAddress(url);
      if (address === null) return undefined;
      return statements.contentMapPage.get({ workspace_id: workspaceId, url, address }) as ContentMapPageRef | undefined;
    },
    /**
     * The page address of a content-map page of the workspace: undefined when the workspace has
     * no such page, null when its URL has none.
     */
    contentMapPageAddress(workspaceId: string, pageId: string): string | null | undefined {
      return statements.pageAddress.get(pageId, workspaceId) as string | null | undefined;
    },
  });
}
