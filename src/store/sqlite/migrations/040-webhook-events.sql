-- The transactional outbox: an event row is written in the same transaction as the status or
-- stage change that caused it; the webhook dispatcher fans it out to deliveries.
CREATE TABLE webhook_events (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  event_type TEXT NOT NULL,
  data TEXT NOT NULL, -- JSON payload, exactly the event's `data`
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX webhook_events_by_workspace ON webhook_events (workspace_id, created_at, id);
