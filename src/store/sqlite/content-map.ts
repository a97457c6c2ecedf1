import type {
  ContentMapStore, Page, PageInput, PageStatus, SitemapUrl, SitemapUrlInput, SitemapUrlType, Topic, TopicInput, TopicStage,
} from '../interfaces/content-map.js';
import type { RecordPage } from '../interfaces/list-pages.js';
import type { SaveResult } from '../interfaces/saved-rows.js';
import {
  contentMapColumns, contentMapListParams, CONTENT_MAP_LISTS, CONTENT_MAP_SQL, CONTENT_MAP_TABLES, sitemapUrlView, topicView,
  type SitemapUrlRow, type TopicRow,
} from '../content-map-rows.js';
import type { Db } from './database.js';
import { prepareRecordList } from './keyset.js';
import { prepareSave } from './saved-rows.js';
import { promised } from './promised.js';

/** Topics, sites (sitemap URLs) and pages of a workspace's content map, synchronously: for the import's transaction. */
export function createSyncContentMapStore(db: Db) {
  const statements = {
    getTopic: db.prepare(CONTENT_MAP_SQL.getTopic),
    getSitemapUrl: db.prepare(CONTENT_MAP_SQL.getSitemapUrl),
    getPage: db.prepare(CONTENT_MAP_SQL.getPage),
  };
  const writes = {
    topic: prepareSave(db, CONTENT_MAP_TABLES.topic),
    sitemapUrl: prepareSave(db, CONTENT_MAP_TABLES.sitemapUrl),
    page: prepareSave(db, CONTENT_MAP_TABLES.page),
  };
  const lists = {
    topics: prepareRecordList(db, CONTENT_MAP_LISTS.topics),
    sitemapUrls: prepareRecordList(db, CONTENT_MAP_LISTS.sitemapUrls),
    pages: prepareRecordList(db, CONTENT_MAP_LISTS.pages),
  };

  return {
    /** The topic if it belongs to the workspace; another workspace's topic is as absent as an unknown one. */
    getTopic(workspaceId: string, id: string): Topic | undefined {
      const row = statements.getTopic.get(id, workspaceId) as TopicRow | undefined;
      return row && topicView(row);
    },
    /** One page of topics in creation or update order. */
    listTopics(filters: { workspaceId: string; stage?: TopicStage | undefined }, page: RecordPage): Topic[] {
      return lists.topics<TopicRow>(contentMapListParams.topics(filters), page).map(topicView);
    },
    /** Writes a topic (insert or full replace), keeping its keywords sorted and its totals in step with them. */
    saveTopic(input: TopicInput): SaveResult<TopicStage> {
      return writes.topic.save(contentMapColumns.topic(input));
    },
    topicStage(id: string): TopicStage | undefined {
      return writes.topic.stateOf(id);
    },

    getSitemapUrl(workspaceId: string, id: string): SitemapUrl | undefined {
      const row = statements.getSitemapUrl.get(id, workspaceId) as SitemapUrlRow | undefined;
      return row && sitemapUrlView(row);
    },
    listSitemapUrls(filters: { workspaceId: string; type?: SitemapUrlType | undefined }, page: RecordPage): SitemapUrl[] {
      return lists.sitemapUrls<SitemapUrlRow>(contentMapListParams.sitemapUrls(filters), page).map(sitemapUrlView);
    },
    /** Writes a site; its state is the processing outcome (`sitemapProcessingState`). */
    saveSitemapUrl(input: SitemapUrlInput): SaveResult<string> {
      return writes.sitemapUrl.save(contentMapColumns.sitemapUrl(input));
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
      return lists.pages<Page>(contentMapListParams.pages(filters), page);
    },
    /** Writes a page with its page address, by which cited URLs are matched to it. */
    savePage(input: PageInput): SaveResult<PageStatus> {
      return writes.page.save(contentMapColumns.page(input));
    },
  };
}

export type SyncContentMapStore = ReturnType<typeof createSyncContentMapStore>;

export function createContentMapStore(db: Db): ContentMapStore {
  return promised(createSyncContentMapStore(db));
}
