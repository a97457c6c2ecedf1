/** One cited page over a period, as the list reads it. */
export interface CitedPageRow {
  url: string;
  domain: string;
  title: string | null;
  citations: number;
  prompts: number;
  /** Comma-separated platforms, in no particular order. */
  platforms: string;
}

/** The content-map page a cited URL is matched to. */
export interface ContentMapPageRef {
  id: string;
  topic_id: string | null;
}

/** Where a page of the list ends: its (citations, url). */
export type CitedPagePosition = readonly [citations: number, url: string];

/** Reads of the cited pages: aggregates of the daily rollup over a day range. */
export interface CitedPageStore {
  /**
   * Pages cited on days [fromDay, toDay] (of one platform, and at one page address, when given),
   * most cited first, after `position`.
   */
  list(
    filter: { workspaceId: string; fromDay: number; toDay: number; platform?: string | undefined; address?: string | undefined },
    limit: number,
    position?: CitedPagePosition,
  ): Promise<CitedPageRow[]>;
  /** The workspace's content-map page at the page address of `url` (preferring `url` itself), if any. */
  contentMapPage(workspaceId: string, url: string): Promise<ContentMapPageRef | undefined>;
  /**
   * The page address of a content-map page of the workspace: undefined when the workspace has
   * no such page, null when its URL has none.
   */
  contentMapPageAddress(workspaceId: string, pageId: string): Promise<string | null | undefined>;
}
