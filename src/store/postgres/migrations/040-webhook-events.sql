-- The transactional outbox: an event row is written in the same transaction as the status or
-- stage change that caused it; the webhook dispatcher fans it out to deliveries.
CREATE TABLE webhook_events (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  event_type TEXT COLLATE "C" NOT NULL,
  data TEXT COLLATE "C" NOT NULL, -- JSON payload, exactly the event's `data` (text, never jsonb: its bytes are sent as they are)
  created_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX webhook_events_by_workspace ON webhook_events (workspace_id, created_at, id);
