import type { components } from '../../generated/openapi.js';
import type { WebhookEvent } from '../../generated/events.js';
import { decodeCursor, encodeCursor, type CursorScope } from '../pagination/cursor.js';
import type { Store } from '../store/index.js';
import type { Feed } from '../store/interfaces/event-feed.js';

type Schemas = components['schemas'];

export type { Feed };

/** What each feed answers, as the contract types it. */
export interface FeedPages {
  content: Schemas['ContentEventFeed'];
  'content-map': Schemas['ContentMapEventFeed'];
  iq: Schemas['IqEventFeed'];
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
export async function readEventFeed<F extends Feed>(store: Store, feed: F, request: FeedRequest): Promise<FeedPages[F]> {
  const { workspaceId, limit } = request;
  const scope: CursorScope = { list: `events:${feed}`, workspaceId, filters: { event_type: request.eventType } };
  const after = request.cursor === undefined ? 0 : decodeCursor(scope, request.cursor, ['number'] as const)[0];
  const since = new Date(request.now.getTime() - FEED_RETENTION_MS).toISOString();
  const rows = await store.eventFeed.list({ workspaceId, feed, eventType: request.eventType, since }, after, limit + 1);
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
