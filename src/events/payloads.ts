import type * as events from '../../generated/events.js';
import type { ContentMapStore } from '../store/content-map.js';

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

export function topicPayload(contentMap: ContentMapStore, workspaceId: string, id: string): EventData['topic.status_updated'] {
  return stored(contentMap.getTopic(workspaceId, id), 'topic', id);
}

export function sitemapUrlPayload(contentMap: ContentMapStore, workspaceId: string, id: string): EventData['sitemap_url.status_updated'] {
  return stored(contentMap.getSitemapUrl(workspaceId, id), 'site', id);
}
