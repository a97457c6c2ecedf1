-- The event feeds (GET /api/v1/content/events, /content-map/events, /iq/events): every event the
-- outbox records, numbered in the order its transaction committed. `seq` is AUTOINCREMENT, so it
-- never decreases and is never reused (not after deletions, not after VACUUM, which may renumber
-- plain rowids); and SQLite has one writer at a time, so every event of a transaction gets a higher
-- number than every event committed before it. A client that keeps the last number it read
-- therefore sees each later event exactly once, even while imports write new ones.
CREATE TABLE event_feed (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id TEXT NOT NULL UNIQUE REFERENCES webhook_events(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  feed TEXT NOT NULL CHECK (feed IN ('content', 'content-map', 'iq')), -- which read scope lists it
  event_type TEXT NOT NULL,
  created_at TEXT NOT NULL -- the event's timestamp, for the 30-day window
) STRICT;
-- A feed, or one event type of it, in order; created_at rides along so that the window is checked
-- in the index.
CREATE INDEX event_feed_by_feed ON event_feed (workspace_id, feed, seq, created_at);
CREATE INDEX event_feed_by_type ON event_feed (workspace_id, event_type, seq, created_at);

-- Events recorded before this migration, in the order they were written. The feed of each type is
-- the one src/events/feeds.ts names.
INSERT INTO event_feed (event_id, workspace_id, feed, event_type, created_at)
SELECT id, workspace_id,
  CASE event_type
    WHEN 'topic.status_updated' THEN 'content-map'
    WHEN 'sitemap_url.status_updated' THEN 'content-map'
    WHEN 'iq.status_updated' THEN 'iq'
    ELSE 'content'
  END,
  event_type, created_at
FROM webhook_events
ORDER BY created_at, rowid;
