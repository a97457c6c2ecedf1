-- Every imported record's id, its type and its workspace: an id is unique across types and
-- workspaces, and a reference is only valid to a record of the expected type in the same workspace.
CREATE TABLE record_ids (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  type TEXT COLLATE "C" NOT NULL
);

CREATE TABLE categories (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT COLLATE "C" NOT NULL,
  color TEXT COLLATE "C" NOT NULL
);

CREATE TABLE competitors (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT COLLATE "C" NOT NULL,
  name_key TEXT COLLATE "C" NOT NULL, -- lower-cased name: snapshots name competitors case-insensitively
  domain TEXT COLLATE "C" NOT NULL,
  UNIQUE (workspace_id, name_key)
);

CREATE TABLE prompts (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  text TEXT COLLATE "C" NOT NULL,
  category_id TEXT COLLATE "C" REFERENCES categories(id) DEFERRABLE INITIALLY DEFERRED,
  status TEXT COLLATE "C" NOT NULL CHECK (status IN ('PENDING', 'GENERATING', 'ACTIVE')),
  created_at TEXT COLLATE "C" NOT NULL,
  last_collected_ms BIGINT -- newest snapshot's collected_at, maintained by the import
);
CREATE INDEX prompts_by_workspace ON prompts (workspace_id, created_at, id);

-- One collected answer. collected_ms is epoch milliseconds, day = floor(collected_ms / 86400000).
CREATE TABLE snapshots (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  prompt_id TEXT COLLATE "C" NOT NULL REFERENCES prompts(id) DEFERRABLE INITIALLY DEFERRED,
  platform TEXT COLLATE "C" NOT NULL CHECK (platform IN ('chatgpt', 'google_ai_overview', 'perplexity', 'gemini', 'grok', 'claude')),
  collected_ms BIGINT NOT NULL,
  day INTEGER NOT NULL,
  mentioned INTEGER NOT NULL CHECK (mentioned IN (0, 1)),
  cited INTEGER NOT NULL CHECK (cited IN (0, 1)),
  competitors TEXT COLLATE "C" NOT NULL, -- JSON array of competitor ids (resolved from names at import)
  citations TEXT COLLATE "C" NOT NULL,   -- JSON array of {url, title}
  answer TEXT COLLATE "C" NOT NULL
);
CREATE INDEX snapshots_by_workspace_time ON snapshots (workspace_id, collected_ms, id);
CREATE INDEX snapshots_by_prompt_time ON snapshots (prompt_id, collected_ms, id);

-- Rollups, maintained by the import in the same transaction as the snapshot change, so analytics
-- read one row per (day, platform) instead of every snapshot.
CREATE TABLE prompt_daily (
  prompt_id TEXT COLLATE "C" NOT NULL,
  day INTEGER NOT NULL,
  platform TEXT COLLATE "C" NOT NULL,
  total BIGINT NOT NULL,
  mentioned BIGINT NOT NULL,
  cited BIGINT NOT NULL,
  PRIMARY KEY (prompt_id, day, platform)
);

CREATE TABLE prompt_competitor_daily (
  prompt_id TEXT COLLATE "C" NOT NULL,
  day INTEGER NOT NULL,
  competitor_id TEXT COLLATE "C" NOT NULL,
  mentions BIGINT NOT NULL,
  PRIMARY KEY (prompt_id, day, competitor_id)
);

CREATE TABLE workspace_daily (
  workspace_id TEXT COLLATE "C" NOT NULL,
  day INTEGER NOT NULL,
  platform TEXT COLLATE "C" NOT NULL,
  total BIGINT NOT NULL,
  mentioned BIGINT NOT NULL,
  cited BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, day, platform)
);

CREATE TABLE workspace_competitor_daily (
  workspace_id TEXT COLLATE "C" NOT NULL,
  day INTEGER NOT NULL,
  competitor_id TEXT COLLATE "C" NOT NULL,
  mentions BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, day, competitor_id)
);
