// The content-map tables (topics, sites, pages) as both databases store them: the SQL every store
// runs, the columns an import writes, and the API's view of a stored row.
import type {
  ContentMapStore, PageInput, PageStatus, SitemapUrl, SitemapUrlInput, SitemapUrlType, Topic, TopicBadge, TopicInput, TopicKeyword, TopicStage,
} from './interfaces/content-map.js';
import { averageDifficulty, sitemapProcessingState, sortTopicKeywords } from './content-map-values.js';
import { fromJson } from './json-columns.js';
import { pageAddress } from './page-address.js';
import { filterIfGiven, type RecordListSql } from './record-list-sql.js';
import { wholeRowTable } from './whole-row-saves.js';

export interface TopicRow {
  id: string;
  name: string;
  stage: TopicStage;
  keywords: string;
  total_msv: number;
  msv_badge: TopicBadge;
  avg_kd: number;
  kd_badge: TopicBadge;
  coverage: number;
  created_at: string;
  updated_at: string;
}

export interface SitemapUrlRow {
  id: string;
  url: string;
  type: SitemapUrlType;
  url_count: number;
  last_fetched_at: string;
  processing_total: number;
  processing_ready: number;
  processing_failed: number;
  processing_completed: 0 | 1;
  created_at: string;
  updated_at: string;
}

const TOPIC_COLUMNS = 'id, name, stage, keywords, total_msv, msv_badge, avg_kd, kd_badge, coverage, created_at, updated_at';
const SITE_COLUMNS = `id, url, type, url_count, last_fetched_at, processing_total, processing_ready, processing_failed,
  processing_completed, created_at, updated_at`;
// A page row is the API's Page as it is, key for key.
const PAGE_COLUMNS = 'id, url, title, site_id, topic_id, status, last_fetched_at, created_at, updated_at';
const TIMES = { createdAt: 'created_at', updatedAt: 'updated_at', id: 'id' };

/** Reads by id (`?` parameters: the id, then the workspace). */
export const CONTENT_MAP_SQL = {
  getTopic: `SELECT ${TOPIC_COLUMNS} FROM topics WHERE id = ? AND workspace_id = ?`,
  getSitemapUrl: `SELECT ${SITE_COLUMNS} FROM sitemap_urls WHERE id = ? AND workspace_id = ?`,
  getPage: `SELECT ${PAGE_COLUMNS} FROM pages WHERE id = ? AND workspace_id = ?`,
} as const;

/** The lists; each filter is a named parameter, NULL when absent (`./record-list-sql.ts`). */
export const CONTENT_MAP_LISTS = {
  topics: {
    select: `SELECT ${TOPIC_COLUMNS} FROM topics`,
    where: `workspace_id = @workspace_id AND ${filterIfGiven('stage')}`,
    ...TIMES,
  },
  sitemapUrls: {
    select: `SELECT ${SITE_COLUMNS} FROM sitemap_urls`,
    where: `workspace_id = @workspace_id AND ${filterIfGiven('type')}`,
    ...TIMES,
  },
  pages: {
    select: `SELECT ${PAGE_COLUMNS} FROM pages`,
    where: `workspace_id = @workspace_id AND ${filterIfGiven('site_id')} AND ${filterIfGiven('topic_id')} AND ${filterIfGiven('status')}`,
    ...TIMES,
  },
} satisfies Record<string, RecordListSql>;

/** The tables an import writes whole; a site's state is its processing outcome (`sitemapProcessingState`). */
export const CONTENT_MAP_TABLES = {
  topic: wholeRowTable<TopicStage>('topics', [
    'id', 'workspace_id', 'name', 'stage', 'keywords', 'total_msv', 'msv_badge', 'avg_kd', 'kd_badge', 'coverage', 'created_at', 'updated_at',
  ], (row) => row.stage as TopicStage),
  sitemapUrl: wholeRowTable<string>('sitemap_urls', [
    'id', 'workspace_id', 'url', 'type', 'url_count', 'last_fetched_at', 'processing_total', 'processing_ready', 'processing_failed',
    'processing_completed', 'created_at', 'updated_at',
  ], (row) => sitemapProcessingState(row.processing_completed === 1, row.processing_failed as number)),
  page: wholeRowTable<PageStatus>('pages', [
    'id', 'workspace_id', 'url', 'address', 'title', 'site_id', 'topic_id', 'status', 'last_fetched_at', 'created_at', 'updated_at',
  ], (row) => row.status as PageStatus),
};

type Filters<K extends 'listTopics' | 'listSitemapUrls' | 'listPages'> = Parameters<ContentMapStore[K]>[0];

/** The named parameters of each list's filters. */
export const contentMapListParams = {
  topics: (f: Filters<'listTopics'>) => ({ workspace_id: f.workspaceId, stage: f.stage ?? null }),
  sitemapUrls: (f: Filters<'listSitemapUrls'>) => ({ workspace_id: f.workspaceId, type: f.type ?? null }),
  pages: (f: Filters<'listPages'>) => ({
    workspace_id: f.workspaceId, site_id: f.siteId ?? null, topic_id: f.topicId ?? null, status: f.status ?? null,
  }),
};

/** The stored columns of each record an import writes. */
export const contentMapColumns = {
  /** Keywords sorted (`sortTopicKeywords`), the totals in step with them. */
  topic: (input: TopicInput): Record<string, unknown> => {
    const keywords = sortTopicKeywords(input.keywords);
    return {
      ...input,
      keywords: JSON.stringify(keywords),
      total_msv: keywords.reduce((sum, k) => sum + k.msv, 0),
      avg_kd: averageDifficulty(keywords),
    };
  },
  sitemapUrl: (input: SitemapUrlInput): Record<string, unknown> => {
    const { processing, ...rest } = input;
    return {
      ...rest,
      processing_total: processing.total,
      processing_ready: processing.ready,
      processing_failed: processing.failed,
      processing_completed: processing.completed ? 1 : 0,
    };
  },
  /** With its page address (`./page-address.ts`), by which cited URLs are matched to it. */
  page: (input: PageInput): Record<string, unknown> => {
    return { ...input, address: pageAddress(input.url) };
  },
};

export function topicView(row: TopicRow): Topic {
  return {
    id: row.id,
    name: row.name,
    stage: row.stage,
    keywords: fromJson<TopicKeyword[]>(row.keywords),
    totalMsv: row.total_msv,
    msvBadge: row.msv_badge,
    avgKd: row.avg_kd,
    kdBadge: row.kd_badge,
    coverage: row.coverage,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function sitemapUrlView(row: SitemapUrlRow): SitemapUrl {
  return {
    id: row.id,
    url: row.url,
    type: row.type,
    urlCount: row.url_count,
    lastFetchedAt: row.last_fetched_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    processing: {
      total: row.processing_total,
      ready: row.processing_ready,
      failed: row.processing_failed,
      completed: row.processing_completed === 1,
    },
  };
}
