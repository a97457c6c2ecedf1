import type { components } from '../../generated/openapi.js';
import type { EventEnvelopes } from '../../generated/events.js';
import type { Cursors, CursorScope } from '../pagination/cursor.js';
import { eventEnvelope, parseStoredData } from '../store/event-envelopes.js';
import { FEED_OF } from '../store/feed-of-event-type.js';
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
const FEED_RETENTION_MS = 30 * 86_400_000;

export interface FeedRequest {
  workspaceId: string;
  /** Only events of this type (one of the feed's). */
  eventType?: string | undefined;
  limit: number;
  cursor?: string | undefined;
  now: Date;
}

/** The event types each feed lists, as the contract divides them. */
interface FeedEventTypes {
  content: Schemas['ContentEventType'];
  'content-map': Schemas['ContentMapEventType'];
  iq: Schemas['IqEventType'];
}

const FEED_OF_TYPE: Readonly<Record<string, Feed | undefined>> = FEED_OF;

function isOfFeed<F extends Feed>(feed: F, type: string): type is FeedEventTypes[F] {
  return Object.hasOwn(FEED_OF_TYPE, type) && FEED_OF_TYPE[type] === feed;
}

// One page builder per feed, typed by the feed's own generated page: the compiler checks that its
// items are the envelopes of that feed's event types.
const PAGE: { [F in Feed]: (items: Array<EventEnvelopes[FeedEventTypes[F]]>, next_cursor: string, has_more: boolean) => FeedPages[F] } = {
  content: (items, next_cursor, has_more) => ({ items, next_cursor, has_more }),
  'content-map': (items, next_cursor, has_more) => ({ items, next_cursor, has_more }),
  iq: (items, next_cursor, has_more) => ({ items, next_cursor, has_more }),
};

/**
 * One page of a feed: the events after the cursor's position and within the last 30 days, in
 * commit order, each as the envelope its webhook delivery carries. `next_cursor` is never null:
 * after an empty page it is the position the client already had, so it can keep asking.
 */
export async function readEventFeed<F extends Feed>(store: Store, cursors: Cursors, feed: F, request: FeedRequest): Promise<FeedPages[F]> {
  const { workspaceId, limit } = request;
  const scope: CursorScope = { list: `events:${feed}`, workspaceId, filters: { event_type: request.eventType } };
  const after = request.cursor === undefined ? 0 : cursors.decode(scope, request.cursor, ['integer'])[0];
  const since = new Date(request.now.getTime() - FEED_RETENTION_MS).toISOString();
  const rows = await store.eventFeed.list({ workspaceId, feed, eventType: request.eventType, since }, after, limit + 1);
  const kept = rows.slice(0, limit);
  // The rows are the feed's own (the query selects by feed), so no event is left out here.
  const items = kept.flatMap((row) => {
    const type = row.event_type;
    if (!isOfFeed(feed, type)) return [];
    return [eventEnvelope(type, { timestamp: row.created_at, workspace_id: workspaceId, is_test: false }, parseStoredData(type, row.data))];
  });
  return PAGE[feed](items, cursors.encode(scope, [kept.at(-1)?.seq ?? after]), rows.length > limit);
}
