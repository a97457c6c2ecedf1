import type { EventPayloads, EventType } from '../../../../generated/events.js';
import type { SyncContentMapStore } from '../content-map.js';
import type { SyncContentStore } from '../content.js';
import type { SyncIqStore } from '../iq.js';

// The `data` of each webhook event is the changed record exactly as the read API shows it
// (`EventPayloads`, generated from the AsyncAPI messages). Each payload is built from the stored
// record after the change is written, so it is what a read of the record returns at that moment.
// The caller has just written the record, so a missing one is a bug, not bad input.
function stored<T>(record: T | undefined, what: string, id: string): T {
  if (record === undefined) throw new Error(`no stored ${what} ${id} to build its event from`);
  return record;
}

function articlePayload(content: SyncContentStore, workspaceId: string, id: string): EventPayloads['content.status_updated'] {
  return stored(content.getArticle(workspaceId, id), 'article', id);
}

function researchBatchPayload(content: SyncContentStore, workspaceId: string, id: string): EventPayloads['research_batch.status_updated'] {
  return stored(content.getResearchBatch(workspaceId, id), 'research batch', id);
}

function agentTaskPayload(content: SyncContentStore, workspaceId: string, id: string): EventPayloads['agent_task.status_updated'] {
  return stored(content.getAgentTask(workspaceId, id), 'agent task', id);
}

function topicPayload(contentMap: SyncContentMapStore, workspaceId: string, id: string): EventPayloads['topic.status_updated'] {
  return stored(contentMap.getTopic(workspaceId, id), 'topic', id);
}

function iqRecordPayload(iq: SyncIqStore, workspaceId: string, id: string): EventPayloads['iq.status_updated'] {
  return stored(iq.get(workspaceId, id), 'brand-intelligence record', id);
}

function sitemapUrlPayload(contentMap: SyncContentMapStore, workspaceId: string, id: string): EventPayloads['sitemap_url.status_updated'] {
  return stored(contentMap.getSitemapUrl(workspaceId, id), 'site', id);
}

/** The store areas event payloads are read from, inside the import's transaction. */
export interface PayloadStores {
  content: SyncContentStore;
  contentMap: SyncContentMapStore;
  iq: SyncIqStore;
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
