import type { components } from '../../../generated/openapi.js';
import type { RecordPage } from './list-pages.js';
import type { SaveResult } from './saved-rows.js';

export type Topic = components['schemas']['Topic'];
export type TopicKeyword = components['schemas']['TopicKeyword'];
export type TopicStage = components['schemas']['TopicStage'];
export type TopicBadge = components['schemas']['TopicBadge'];
export type SitemapUrl = components['schemas']['SitemapUrl'];
export type SitemapUrlType = components['schemas']['SitemapUrlType'];
export type Page = components['schemas']['Page'];
export type PageStatus = components['schemas']['PageStatus'];

/** What an import writes for a topic; the metrics derived from the keywords are computed by the store. */
export interface TopicInput {
  id: string;
  workspace_id: string;
  name: string;
  stage: TopicStage;
  keywords: TopicKeyword[];
  msv_badge: TopicBadge;
  kd_badge: TopicBadge;
  coverage: number;
  created_at: string;
  updated_at: string;
}

export interface SitemapUrlInput {
  id: string;
  workspace_id: string;
  url: string;
  type: SitemapUrlType;
  url_count: number;
  last_fetched_at: string;
  processing: SitemapUrl['processing'];
  created_at: string;
  updated_at: string;
}

export type PageInput = Page & { workspace_id: string };

/** Topics, sites (sitemap URLs) and pages of a workspace's content map. */
export interface ContentMapStore {
  /** The topic if it belongs to the workspace; another workspace's topic is as absent as an unknown one. */
  getTopic(workspaceId: string, id: string): Promise<Topic | undefined>;
  /** One page of topics in creation or update order. */
  listTopics(filters: { workspaceId: string; stage?: TopicStage | undefined }, page: RecordPage): Promise<Topic[]>;
  /** Writes a topic (insert or full replace), keeping its keywords sorted (`sortTopicKeywords`) and its totals in step with them. */
  saveTopic(input: TopicInput): Promise<SaveResult<TopicStage>>;
  topicStage(id: string): Promise<TopicStage | undefined>;

  getSitemapUrl(workspaceId: string, id: string): Promise<SitemapUrl | undefined>;
  listSitemapUrls(filters: { workspaceId: string; type?: SitemapUrlType | undefined }, page: RecordPage): Promise<SitemapUrl[]>;
  /** Writes a site; its state is the processing outcome (`sitemapProcessingState`). */
  saveSitemapUrl(input: SitemapUrlInput): Promise<SaveResult<string>>;
  sitemapUrlState(id: string): Promise<string | undefined>;

  getPage(workspaceId: string, id: string): Promise<Page | undefined>;
  listPages(
    filters: { workspaceId: string; siteId?: string | undefined; topicId?: string | undefined; status?: PageStatus | undefined },
    page: RecordPage,
  ): Promise<Page[]>;
  /** Writes a page with its page address (`../page-address.ts`), by which cited URLs are matched to it. */
  savePage(input: PageInput): Promise<SaveResult<PageStatus>>;
}
