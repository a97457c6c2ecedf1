-- The owners' console (/console): one-time sign-in links an operator prints, and the sessions a
-- sign-in starts. Both secrets are stored only as SHA-256 hashes. A session lives in the database
-- so that any instance serves it; it remembers the token it was started with (null after a link)
-- and the role its member had, so that a revoked token, a removed member or another role ends it
-- on the next request.
CREATE TABLE console_sign_in_links (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id),
  link_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
) STRICT;

CREATE TABLE console_sessions (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id),
  token_id TEXT REFERENCES member_tokens(id),
  link_id TEXT REFERENCES console_sign_in_links(id),
  role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
  session_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  ended_at TEXT
) STRICT;

CREATE INDEX console_sessions_by_member ON console_sessions (workspace_id, user_id);
