import type { EventPayloads, EventType } from '../../generated/events.js';
import type { ContentMapStore } from '../store/content-map.js';
import type { ContentStore } from '../store/content.js';
import type { IqStore } from '../store/iq.js';

// The `data` of each webhook event is the changed record exactly as the read API shows it
// (`EventPayloads`, generated from the AsyncAPI messages). Each payload is built from the stored
// record after the change is written, so it is what a read of the record returns at that moment.
// The caller has just written the record, so a missing one is a bug, not bad input.
function stored<T>(record: T | undefined, what: string, id: string): T {
  if (record === undefined) throw new Error(`no stored ${what} ${id} to build its event from`);
  return record;
}

export function articlePayload(content: ContentStore, workspaceId: string, id: string): EventPayloads['content.status_updated'] {
  return stored(content.getArticle(workspaceId, id), 'article', id);
}

export function researchBatchPayload(content: ContentStore, workspaceId: string, id: string): EventPayloads['research_batch.status_updated'] {
  return stored(content.getResearchBatch(workspaceId, id), 'research batch', id);
}

export function agentTaskPayload(content: ContentStore, workspaceId: string, id: string): EventPayloads['agent_task.status_updated'] {
  return stored(content.getAgentTask(workspaceId, id), 'agent task', id);
}

export function topicPayload(contentMap: ContentMapStore, workspaceId: string, id: string): EventPayloads['topic.status_updated'] {
  return stored(contentMap.getTopic(workspaceId, id), 'topic', id);
}

export function iqRecordPayload(iq: IqStore, workspaceId: string, id: string): EventPayloads['iq.status_updated'] {
  return stored(iq.get(workspaceId, id), 'brand-intelligence record', id);
}

export function sitemapUrlPayload(contentMap: ContentMapStore, workspaceId: string, id: string): EventPayloads['sitemap_url.status_updated'] {
  return stored(contentMap.getSitemapUrl(workspaceId, id), 'site', id);
}

/** The store areas event payloads are read from (a `Store` has them all). */
export interface PayloadStores {
  content: ContentStore;
  contentMap: ContentMapStore;
  iq: IqStore;
}

/** The payload of the stored record `id` for any event type, e.g. to show what an event of it carries. */
export function eventPayload<T extends EventType>(stores: PayloadStores, type: T, workspaceId: string, id: string): EventPayloads[T] {
  const builders: { [E in EventType]: () => EventPayloads[E] } = {
    'content.status_updated': () => articlePayload(stores.content, workspaceId, id),
    'research_batch.status_updated': () => researchBatchPayload(stores.content, workspaceId, id),
    'agent_task.status_updated': () => agentTaskPayload(stores.content, workspaceId, id),
    'topic.status_updated': () => topicPayload(stores.contentMap, workspaceId, id),
    'iq.status_updated': () => iqRecordPayload(stores.iq, workspaceId, id),
    'sitemap_url.status_updated': () => sitemapUrlPayload(stores.contentMap, workspaceId, id),
  };
  return builders[type]();
}
