import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';
import type { EventFeedStore, Feed, FeedRow } from '../interfaces/event-feed.js';
import { eventFeedPage, EVENT_FEED_SQL } from '../event-feed-rows.js';
import { promised } from './promised.js';

const writerByDb = new WeakMap<Db, Statement>();

/**
 * The statement that gives an event its place in its feed (migration 044), prepared once per
 * connection: the outbox runs it with a bare `Db` inside the transaction of the change.
 */
export function feedEntryWriter(db: Db): Statement {
  let writer = writerByDb.get(db);
  if (!writer) {
    writer = db.prepare('INSERT INTO event_feed (event_id, workspace_id, feed, event_type, created_at) VALUES (?, ?, ?, ?, ?)');
    writerByDb.set(db, writer);
  }
  return writer;
}

/** Reads of the event feeds: a range scan of one index in commit order, then the events' bodies. */
export function createEventFeedStore(db: Db): EventFeedStore {
  const statements = {
    byFeed: db.prepare(EVENT_FEED_SQL.byFeed),
    byType: db.prepare(EVENT_FEED_SQL.byType),
  };

  return promised({
    /**
     * Up to `limit` events of one feed (of one type of it when given) with a position above
     * `after` and a timestamp at or after `since`, in the order they were committed.
     */
    list(filter: { workspaceId: string; feed: Feed; eventType?: string | undefined; since: string }, after: number, limit: number): FeedRow[] {
      const page = eventFeedPage(filter, after, limit);
      return statements[page.statement].all(page.params) as FeedRow[];
    },
  });
}
