// Values the content-map store derives from what an import writes, the same in every database.
import type { TopicKeyword } from './interfaces/content-map.js';

/** The state of a site whose processing has not completed: its progress is no event. */
export const SITEMAP_PROCESSING_OPEN = 'running';

/**
 * The part of a site's processing that `sitemap_url.status_updated` reports: running, or completed
 * with how many pages failed.
 */
export function sitemapProcessingState(completed: boolean, failed: number): string {
  return completed ? `completed, ${failed} failed` : SITEMAP_PROCESSING_OPEN;
}

/** Keywords by search volume descending, then keyword (code-point order), as the API lists them. */
export function sortTopicKeywords(keywords: readonly TopicKeyword[]): TopicKeyword[] {
  return [...keywords].sort((a, b) => b.msv - a.msv || (a.keyword < b.keyword ? -1 : a.keyword > b.keyword ? 1 : 0));
}

/** The mean keyword difficulty, rounded half away from zero; metrics are never negative, so Math.round is exact here. */
export function averageDifficulty(keywords: readonly TopicKeyword[]): number {
  if (keywords.length === 0) return 0;
  return Math.round(keywords.reduce((sum, k) => sum + k.kd, 0) / keywords.length);
}
