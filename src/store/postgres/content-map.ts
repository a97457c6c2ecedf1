import type { ContentMapStore, Page } from '../interfaces/content-map.js';
import {
  contentMapColumns, contentMapListParams, CONTENT_MAP_LISTS, CONTENT_MAP_SQL, CONTENT_MAP_TABLES, sitemapUrlView, topicView,
} from '../content-map-rows.js';
import { recordListMethod } from './keyset.js';
import type { PostgresPool } from './pool.js';
import { postgresGetById } from './record-by-id.js';
import { postgresSave } from './saved-rows.js';

/** Topics, sites (sitemap URLs) and pages of a workspace's content map, in PostgreSQL: the same answers as `../sqlite/content-map.ts`. */
export function createPostgresContentMapStore(pool: PostgresPool): ContentMapStore {
  const topics = postgresSave(pool, CONTENT_MAP_TABLES.topic, contentMapColumns.topic);
  const sitemapUrls = postgresSave(pool, CONTENT_MAP_TABLES.sitemapUrl, contentMapColumns.sitemapUrl);
  // A page row is the API's Page as it is.
  const asStored = (page: Page) => page;

  return {
    getTopic: postgresGetById(pool, CONTENT_MAP_SQL.getTopic, topicView),
    listTopics: recordListMethod(pool, CONTENT_MAP_LISTS.topics, contentMapListParams.topics, topicView),
    saveTopic: topics.save,
    topicStage: topics.stateOf,

    getSitemapUrl: postgresGetById(pool, CONTENT_MAP_SQL.getSitemapUrl, sitemapUrlView),
    listSitemapUrls: recordListMethod(pool, CONTENT_MAP_LISTS.sitemapUrls, contentMapListParams.sitemapUrls, sitemapUrlView),
    saveSitemapUrl: sitemapUrls.save,
    sitemapUrlState: sitemapUrls.stateOf,

    getPage: postgresGetById(pool, CONTENT_MAP_SQL.getPage, asStored),
    listPages: recordListMethod(pool, CONTENT_MAP_LISTS.pages, contentMapListParams.pages, asStored),
    savePage: postgresSave(pool, CONTENT_MAP_TABLES.page, contentMapColumns.page).save,
  };
}
