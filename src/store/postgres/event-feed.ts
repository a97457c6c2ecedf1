import { eventFeedPage, EVENT_FEED_SQL } from '../event-feed-rows.js';
import type { EventFeedStore, FeedRow } from '../interfaces/event-feed.js';
import type { PostgresPool } from './pool.js';
import { rows } from './query.js';

/**
 * Reads of the event feeds in PostgreSQL, with SQLite's statements (`../event-feed-rows.ts`). The
 * numbers follow commit order there too: the schema serialises the transactions that write events
 * (`migrations/044-event-feed.sql`).
 */
export function createPostgresEventFeedStore(pool: PostgresPool): EventFeedStore {
  return {
    list(filter, after, limit) {
      const page = eventFeedPage(filter, after, limit);
      return rows<FeedRow>(pool, EVENT_FEED_SQL[page.statement], page.params);
    },
  };
}
