import type {
  ContentMapStore, Page, PageInput, PageStatus, SitemapUrl, SitemapUrlInput, SitemapUrlType, Topic, TopicBadge, TopicInput, TopicKeyword, TopicStage,
} from '../interfaces/content-map.js';
import type { RecordPage } from '../interfaces/list-pages.js';
import type { SaveResult } from '../interfaces/saved-rows.js';
import { PAGES, SITEMAP_URLS, TOPICS, pageRow, sitemapUrlRow, topicRow } from '../import/tables/content-map.js';
import type { Db } from './database.js';
import { prepareRecordList } from './keyset.js';
import { fromJson, prepareSave } from './saved-rows.js';
import { promised } from './promised.js';

interface TopicRow {
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

interface SitemapUrlRow {
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
const PAGE_COLUMNS = 'id, url, title, site_id, topic_id, status, last_fetched_at, created_at, updated_at';
const TIMES = { createdAt: 'created_at', updatedAt: 'updated_at', id: 'id' };

function topicView(row: TopicRow): Topic {
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

function sitemapUrlView(row: SitemapUrlRow): SitemapUrl {
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

/** Topics, sites (sitemap URLs) and pages of a workspace's content map, synchronously: for the import's transaction. */
export function createSyncContentMapStore(db: Db) {
  const statements = {
    getTopic: db.prepare(`SELECT ${TOPIC_COLUMNS} FROM topics WHERE id = ? AND workspace_id = ?`),
    getSitemapUrl: db.prepare(`SELECT ${SITE_COLUMNS} FROM sitemap_urls WHERE id = ? AND workspace_id = ?`),
    getPage: db.prepare(`SELECT ${PAGE_COLUMNS} FROM pages WHERE id = ? AND workspace_id = ?`),
  };
  const writes = {
    topic: prepareSave(db, TOPICS),
    sitemapUrl: prepareSave(db, SITEMAP_URLS),
    page: prepareSave(db, PAGES),
  };
  const lists = {
    topics: prepareRecordList(db, {
      select: `SELECT ${TOPIC_COLUMNS} FROM topics`,
      where: 'workspace_id = @workspace_id AND (@stage IS NULL OR stage = @stage)',
      ...TIMES,
    }),
    sitemapUrls: prepareRecordList(db, {
      select: `SELECT ${SITE_COLUMNS} FROM sitemap_urls`,
      where: 'workspace_id = @workspace_id AND (@type IS NULL OR type = @type)',
      ...TIMES,
    }),
    pages: prepareRecordList(db, {
      select: `SELECT ${PAGE_COLUMNS} FROM pages`,
      where: `workspace_id = @workspace_id AND (@site_id IS NULL OR site_id = @site_id)
        AND (@topic_id IS NULL OR topic_id = @topic_id) AND (@status IS NULL OR status = @status)`,
      ...TIMES,
    }),
  };

  return {
    /** The topic if it belongs to the workspace; another workspace's topic is as absent as an unknown one. */
    getTopic(workspaceId: string, id: string): Topic | undefined {
      const row = statements.getTopic.get(id, workspaceId) as TopicRow | undefined;
      return row && topicView(row);
    },
    /** One page of topics in creation or update order. */
    listTopics(filters: { workspaceId: string; stage?: TopicStage | undefined }, page: RecordPage): Topic[] {
      return lists.topics<TopicRow>({ workspace_id: filters.workspaceId, stage: filters.stage ?? null }, page).map(topicView);
    },
    /** Writes a topic (insert or full replace), keeping its keywords sorted and its totals in step with them. */
    saveTopic(input: TopicInput): SaveResult<TopicStage> {
      return writes.topic.save(topicRow(input));
    },
    topicStage(id: string): TopicStage | undefined {
      return writes.topic.stateOf(id);
    },

    getSitemapUrl(workspaceId: string, id: string): SitemapUrl | undefined {
      const row = statements.getSitemapUrl.get(id, workspaceId) as SitemapUrlRow | undefined;
      return row && sitemapUrlView(row);
    },
    listSitemapUrls(filters: { workspaceId: string; type?: SitemapUrlType | undefined }, page: RecordPage): SitemapUrl[] {
      return lists.sitemapUrls<SitemapUrlRow>({ workspace_id: filters.workspaceId, type: filters.type ?? null }, page).map(sitemapUrlView);
    },
    /** Writes a site; its state is the processing outcome (`sitemapProcessingState`). */
    saveSitemapUrl(input: SitemapUrlInput): SaveResult<string> {
      return writes.sitemapUrl.save(sitemapUrlRow(input));
    },
    sitemapUrlState(id: string): string | undefined {
      return writes.sitemapUrl.stateOf(id);
    },

    getPage(workspaceId: string, id: string): Page | undefined {
      return statements.getPage.get(id, workspaceId) as Page | undefined;
    },
    listPages(
      filters: { workspaceId: string; siteId?: string | undefined; topicId?: string | undefined; status?: PageStatus | undefined },
      page: RecordPage,
    ): Page[] {
      return lists.pages<Page>({
        workspace_id: filters.workspaceId,
        site_id: filters.siteId ?? null,
        topic_id: filters.topicId ?? null,
        status: filters.status ?? null,
      }, page);
    },
    /** Writes a page with its page address, by which cited URLs are matched to it. */
    savePage(input: PageInput): SaveResult<PageStatus> {
      return writes.page.save(pageRow(input));
    },
  };
}

export type SyncContentMapStore = ReturnType<typeof createSyncContentMapStore>;

export function createContentMapStore(db: Db): ContentMapStore {
  return promised(createSyncContentMapStore(db));
}
