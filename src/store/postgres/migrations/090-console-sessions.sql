-- The owners' console (/console): one-time sign-in links an operator prints, and the sessions a
-- sign-in starts. Both secrets are stored only as SHA-256 hashes. A session lives in the database
-- so that any instance serves it; it remembers the token it was started with (null after a link)
-- and the role its member had, so that a revoked token, a removed member or another role ends it
-- on the next request.
CREATE TABLE console_sign_in_links (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id),
  link_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  created_at TEXT COLLATE "C" NOT NULL,
  expires_at TEXT COLLATE "C" NOT NULL,
  used_at TEXT COLLATE "C"
);

CREATE TABLE console_sessions (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id),
  token_id TEXT COLLATE "C" REFERENCES member_tokens(id),
  link_id TEXT COLLATE "C" REFERENCES console_sign_in_links(id),
  role TEXT COLLATE "C" NOT NULL CHECK (role IN ('owner', 'member')),
  session_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  created_at TEXT COLLATE "C" NOT NULL,
  last_seen_at TEXT COLLATE "C" NOT NULL,
  ended_at TEXT COLLATE "C"
);

CREATE INDEX console_sessions_by_member ON console_sessions (workspace_id, user_id);
