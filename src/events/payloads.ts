import type * as events from '../../generated/events.js';
import type { ContentMapStore } from '../store/content-map.js';
import type { ContentStore } from '../store/content.js';

/** The `data` of each webhook event (seed §6): the changed record exactly as the read API shows it. */
export interface EventData {
  'content.status_updated': events.Article;
  'research_batch.status_updated': events.ResearchBatch;
  'agent_task.status_updated': events.AgentTask;
  'topic.status_updated': events.Topic;
  'iq.status_updated': events.IqRecord;
  'sitemap_url.status_updated': events.SitemapUrl;
}

// Each payload is built from the stored record after the change is written, so it is what a read
// of the record returns at that moment. The caller has just written the record, so a missing one
// is a bug, not bad input.
function stored<T>(record: T | undefined, what: string, id: string): T {
  if (record === undefined) throw new Error(`no stored ${what} ${id} to build its event from`);
  return record;
}

export function articlePayload(content: ContentStore, workspaceId: string, id: string): EventData['content.status_updated'] {
  return stored(content.getArticle(workspaceId, id), 'article', id);
}

export function researchBatchPayload(content: ContentStore, workspaceId: string, id: string): EventData['research_batch.status_updated'] {
  return stored(content.getResearchBatch(workspaceId, id), 'research batch', id);
}

export function agentTaskPayload(content: ContentStore, workspaceId: string, id: string): EventData['agent_task.status_updated'] {
  return stored(content.getAgentTask(workspaceId, id), 'agent task', id);
}

export function topicPayload(contentMap: ContentMapStore, workspaceId: string, id: string): EventData['topic.status_updated'] {
  return stored(contentMap.getTopic(workspaceId, id), 'topic', id);
}

export function sitemapUrlPayload(contentMap: ContentMapStore, workspaceId: string, id: string): EventData['sitemap_url.status_updated'] {
  return stored(contentMap.getSitemapUrl(workspaceId, id), 'site', id);
}
