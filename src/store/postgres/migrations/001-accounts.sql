CREATE TABLE workspaces (
  id TEXT COLLATE "C" PRIMARY KEY,
  name TEXT COLLATE "C" NOT NULL,
  subscription_status TEXT COLLATE "C" NOT NULL DEFAULT 'active'
    CHECK (subscription_status IN ('active', 'past_due', 'canceled', 'none')),
  created_at TEXT COLLATE "C" NOT NULL
);

CREATE TABLE users (
  id TEXT COLLATE "C" PRIMARY KEY,
  email TEXT COLLATE "C" NOT NULL,
  name TEXT COLLATE "C" NOT NULL,
  created_at TEXT COLLATE "C" NOT NULL
);
-- SQLite's `email TEXT UNIQUE COLLATE NOCASE`: one user per address whatever the case of its ASCII
-- letters. lower() under the "C" collation folds ASCII letters only, exactly as NOCASE does;
-- look-ups by address compare lower(email) so that they use this index.
CREATE UNIQUE INDEX users_email_nocase ON users (lower(email));

CREATE TABLE memberships (
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  user_id TEXT COLLATE "C" NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role TEXT COLLATE "C" NOT NULL CHECK (role IN ('owner', 'member')),
  created_at TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (workspace_id, user_id)
);

CREATE TABLE api_keys (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  created_by TEXT COLLATE "C" NOT NULL REFERENCES users(id),
  name TEXT COLLATE "C" NOT NULL,
  prefix TEXT COLLATE "C" NOT NULL,
  key_hash TEXT COLLATE "C" NOT NULL UNIQUE,
  scopes TEXT COLLATE "C" NOT NULL, -- space-separated, in canonical order
  created_at TEXT COLLATE "C" NOT NULL,
  expires_at TEXT COLLATE "C" NOT NULL,
  revoked_at TEXT COLLATE "C",
  last_used_at TEXT COLLATE "C"
);

CREATE INDEX api_keys_by_workspace ON api_keys (workspace_id, created_at, id);
