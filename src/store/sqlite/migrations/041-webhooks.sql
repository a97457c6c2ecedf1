-- Webhook subscriptions. The signing secret must be kept readable to sign deliveries; the API
-- shows it once at creation and masked afterwards. During a rotation the previous secret keeps
-- signing until previous_secret_expires_at.
CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT,
  events TEXT NOT NULL, -- JSON array of subscribed event types
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_expires_at TEXT,
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  disabled_at TEXT,
  created_by TEXT REFERENCES users(id),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX webhooks_by_workspace ON webhooks (workspace_id, created_at, id);
