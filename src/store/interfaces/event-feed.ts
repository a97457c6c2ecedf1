/** The event feeds of the read API, one per read scope (the path prefix decides the scope). */
export type Feed = 'content' | 'content-map' | 'iq';

/** One event of a feed, with its position: what a feed page is built from. */
export interface FeedRow {
  seq: number;
  event_type: string;
  /** The event's `data`, as JSON text. */
  data: string;
  created_at: string;
}

/** Reads of the event feeds, in the order the events were committed. */
export interface EventFeedStore {
  /**
   * Up to `limit` events of one feed (of one type of it when given) with a position above
   * `after` and a timestamp at or after `since`, in the order they were committed.
   */
  list(filter: { workspaceId: string; feed: Feed; eventType?: string | undefined; since: string }, after: number, limit: number): Promise<FeedRow[]>;
}
