-- Webhook subscriptions. The signing secret must be kept readable to sign deliveries; the API
-- shows it once at creation and masked afterwards. During a rotation the previous secret keeps
-- signing until previous_secret_expires_at.
CREATE TABLE webhooks (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  url TEXT COLLATE "C" NOT NULL,
  name TEXT COLLATE "C" NOT NULL,
  description TEXT COLLATE "C",
  events TEXT COLLATE "C" NOT NULL, -- JSON array of subscribed event types
  secret TEXT COLLATE "C" NOT NULL,
  previous_secret TEXT COLLATE "C",
  previous_secret_expires_at TEXT COLLATE "C",
  enabled INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  disabled_at TEXT COLLATE "C",
  created_by TEXT COLLATE "C" REFERENCES users(id),
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX webhooks_by_workspace ON webhooks (workspace_id, created_at, id);
