// The stored form of the content map's records (migration 020): what the import and the content-map
// store write, the same in every database.
import type { PageInput, PageStatus, SitemapUrlInput, TopicInput, TopicStage } from '../../interfaces/content-map.js';
import { averageDifficulty, sitemapProcessingState, sortTopicKeywords } from '../../content-map-values.js';
import { pageAddress } from '../../page-address.js';
import type { SavedRow, SavedTable } from '../saved-rows.js';

export const TOPICS: SavedTable<TopicStage> = {
  table: 'topics',
  columns: ['id', 'workspace_id', 'name', 'stage', 'keywords', 'total_msv', 'msv_badge', 'avg_kd', 'kd_badge', 'coverage', 'created_at', 'updated_at'],
  state: (row) => row.stage as TopicStage,
};

/** A site's state is its processing outcome (`sitemapProcessingState`). */
export const SITEMAP_URLS: SavedTable<string> = {
  table: 'sitemap_urls',
  columns: [
    'id', 'workspace_id', 'url', 'type', 'url_count', 'last_fetched_at', 'processing_total', 'processing_ready', 'processing_failed',
    'processing_completed', 'created_at', 'updated_at',
  ],
  state: (row) => sitemapProcessingState(row.processing_completed === 1, row.processing_failed as number),
};

export const PAGES: SavedTable<PageStatus> = {
  table: 'pages',
  columns: ['id', 'workspace_id', 'url', 'address', 'title', 'site_id', 'topic_id', 'status', 'last_fetched_at', 'created_at', 'updated_at'],
  state: (row) => row.status as PageStatus,
};

/** A topic with its keywords sorted and its totals in step with them. */
export function topicRow(input: TopicInput): SavedRow {
  const keywords = sortTopicKeywords(input.keywords);
  return {
    ...input,
    keywords: JSON.stringify(keywords),
    total_msv: keywords.reduce((sum, k) => sum + k.msv, 0),
    avg_kd: averageDifficulty(keywords),
  };
}

export function sitemapUrlRow(input: SitemapUrlInput): SavedRow {
  const { processing, ...rest } = input;
  return {
    ...rest,
    processing_total: processing.total,
    processing_ready: processing.ready,
    processing_failed: processing.failed,
    processing_completed: processing.completed ? 1 : 0,
  };
}

/** A page with its page address, by which cited URLs are matched to it. */
export function pageRow(input: PageInput): SavedRow {
  return { ...input, address: pageAddress(input.url) };
}
