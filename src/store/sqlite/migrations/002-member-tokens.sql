-- Member access tokens: how owners and members reach the administration API. Like API keys, only
-- a SHA-256 hash is stored and the token is shown once. A token acts as its user in its workspace
-- and stops working when revoked or when the user is no longer a member (checked on every request).
CREATE TABLE member_tokens (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id),
  name TEXT NOT NULL,
  prefix TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  revoked_at TEXT
) STRICT;

CREATE INDEX member_tokens_by_workspace ON member_tokens (workspace_id, created_at, id);
