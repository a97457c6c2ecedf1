// Reads of the event feeds, the same SQL in every database: a range scan of one index in commit
// order (`event_feed`, numbered by the outbox), then the events' bodies.
import type { EventFeedStore } from './interfaces/event-feed.js';

function feedPage(match: string): string {
  return `SELECT f.seq, e.event_type, e.data, e.created_at
     FROM event_feed f JOIN webhook_events e ON e.id = f.event_id
     WHERE f.workspace_id = @workspace_id AND ${match} AND f.seq > @after AND f.created_at >= @since
     ORDER BY f.seq
     LIMIT @limit`;
}

/** A whole feed (`@feed`), or one event type (`@event_type`); both take `@workspace_id`, `@after`, `@since`, `@limit`. */
export const EVENT_FEED_SQL = {
  byFeed: feedPage('f.feed = @feed'),
  byType: feedPage('f.event_type = @event_type'),
} as const;

/** Which statement reads the page `list` asks for, and its parameters. */
export function eventFeedPage(...[filter, after, limit]: Parameters<EventFeedStore['list']>): {
  statement: keyof typeof EVENT_FEED_SQL;
  params: Record<string, unknown>;
} {
  const params = { workspace_id: filter.workspaceId, after, since: filter.since, limit };
  if (filter.eventType === undefined) return { statement: 'byFeed', params: { ...params, feed: filter.feed } };
  return { statement: 'byType', params: { ...params, event_type: filter.eventType } };
}
