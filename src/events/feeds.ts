import type { components } from '../../generated/openapi.js';
import type { EventType, WebhookEvent } from '../../generated/events.js';
import { decodeCursor, encodeCursor, type CursorScope } from '../pagination/cursor.js';
import type { Store } from '../store/index.js';

type Schemas = components['schemas'];

import type { Feed } from '../store/event-feed.js';

export type { Feed };

/**
 * The feed of each event type, as the contract's `ContentEventType`, `ContentMapEventType` and
 * `IqEventType` divide them: the type makes an event type the contract adds, or one missing here,
 * a compile error. Migration 044 writes the same mapping for events recorded before it.
 */
const FEED_OF: Record<Schemas['ContentEventType'], 'content'> & Record<Schemas['ContentMapEventType'], 'content-map'> & Record<Schemas['IqEventType'], 'iq'> = {
  'content.status_updated': 'content',
  'research_batch.status_updated': 'content',
  'agent_task.status_updated': 'content',
  'topic.status_updated': 'content-map',
  'sitemap_url.status_updated': 'content-map',
  'iq.status_updated': 'iq',
};

/** What each feed answers, as the contract types it. */
export interface FeedPages {
  content: Schemas['ContentEventFeed'];
  'content-map': Schemas['ContentMapEventFeed'];
  iq: Schemas['IqEventFeed'];
}

/** The feed that lists events of `type`. */
export function feedOf(type: EventType): Feed {
  return FEED_OF[type];
}

/** How far back a feed reaches. */
export const FEED_RETENTION_MS = 30 * 86_400_000;

export interface FeedRequest {
  workspaceId: string;
  /** Only events of this type (one of the feed's). */
  eventType?: string | undefined;
  limit: number;
  cursor?: string | undefined;
  now: Date;
}

/**
 * One page of a feed: the events after the cursor's position and within the last 30 days, in
 * commit order, each as the envelope its webhook delivery carries. `next_cursor` is never null:
 * after an empty page it is the position the client already had, so it can keep asking.
 */
export function readEventFeed<F extends Feed>(store: Store, feed: F, request: FeedRequest): FeedPages[F] {
  const { workspaceId, limit } = request;
  const scope: CursorScope = { list: `events:${feed}`, workspaceId, filters: { event_type: request.eventType } };
  const after = request.cursor === undefined ? 0 : decodeCursor(scope, request.cursor, ['number'] as const)[0];
  const since = new Date(request.now.getTime() - FEED_RETENTION_MS).toISOString();
  const rows = store.eventFeed.list({ workspaceId, feed, eventType: request.eventType, since }, after, limit + 1);
  const kept = rows.slice(0, limit);
  // The stored data is the event's own payload, written by the outbox from the contract's types.
  const items = kept.map((row) => ({
    event: row.event_type,
    timestamp: row.created_at,
    workspace_id: workspaceId,
    is_test: false,
    data: JSON.parse(row.data) as WebhookEvent['data'],
  }) as WebhookEvent);
  // The rows are the outbox's own, so each item is the envelope of an event of this feed.
  return { items, next_cursor: encodeCursor(scope, [kept.at(-1)?.seq ?? after]), has_more: rows.length > limit } as FeedPages[F];
}
