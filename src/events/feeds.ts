import type { components } from '../../generated/openapi.js';
import type { EventType } from '../../generated/events.js';
import { decodeCursor, encodeCursor, type CursorScope } from '../pagination/cursor.js';
import type { Store } from '../store/index.js';
import type { DeliveryEnvelope } from '../webhooks/outbox.js';

type Schemas = components['schemas'];

/**
 * The event feeds of the read API, one per read scope (the path prefix decides the scope): which
 * event types each lists. Migration 044 writes the same mapping for events recorded before it.
 */
export const FEED_TYPES = {
  content: ['content.status_updated', 'research_batch.status_updated', 'agent_task.status_updated'],
  'content-map': ['topic.status_updated', 'sitemap_url.status_updated'],
  iq: ['iq.status_updated'],
} as const satisfies Record<string, readonly EventType[]>;

export type Feed = keyof typeof FEED_TYPES;

/** What each feed answers, as the contract types it. */
export interface FeedPages {
  content: Schemas['ContentEventFeed'];
  'content-map': Schemas['ContentMapEventFeed'];
  iq: Schemas['IqEventFeed'];
}

/** The feed that lists events of `type`. */
export function feedOf(type: EventType): Feed {
  for (const [feed, types] of Object.entries(FEED_TYPES) as Array<[Feed, readonly EventType[]]>) if (types.includes(type)) return feed;
  throw new Error(`no event feed lists ${type}`);
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
  const items: DeliveryEnvelope[] = kept.map((row) => ({
    event: row.event_type,
    timestamp: row.created_at,
    workspace_id: workspaceId,
    is_test: false,
    data: JSON.parse(row.data) as object,
  }));
  // The rows are the outbox's own, so each item is the envelope of an event of this feed.
  return { items, next_cursor: encodeCursor(scope, [kept.at(-1)?.seq ?? after]), has_more: rows.length > limit } as FeedPages[F];
}
