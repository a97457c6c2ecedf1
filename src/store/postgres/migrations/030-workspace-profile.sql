-- The brand a workspace tracks and how its answers are collected: one imported
-- `workspace_profile` record per workspace (a later record replaces the earlier one).
CREATE TABLE workspace_profiles (
  workspace_id TEXT COLLATE "C" PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
  id TEXT COLLATE "C" NOT NULL UNIQUE,
  brand_name TEXT COLLATE "C" NOT NULL,
  domains TEXT COLLATE "C" NOT NULL,           -- JSON array of lower-case host names
  tracked_platforms TEXT COLLATE "C" NOT NULL, -- JSON array of platforms, in the canonical platform order
  collection_cadence TEXT COLLATE "C" NOT NULL CHECK (collection_cadence IN ('hourly', 'daily', 'weekly'))
);

-- The workspace's plan: one imported `workspace_plan` record per workspace. Period days are
-- `YYYY-MM-DD`, both included; a null limit is unlimited.
CREATE TABLE workspace_plans (
  workspace_id TEXT COLLATE "C" PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
  id TEXT COLLATE "C" NOT NULL UNIQUE,
  name TEXT COLLATE "C" NOT NULL,
  tracked_prompts_limit BIGINT CHECK (tracked_prompts_limit >= 0),
  articles_per_month_limit BIGINT CHECK (articles_per_month_limit >= 0),
  period_start TEXT COLLATE "C" NOT NULL,
  period_end TEXT COLLATE "C" NOT NULL,
  CHECK (period_end >= period_start)
);

-- Authenticated API requests per workspace and UTC day (day = epoch days), accumulated in memory
-- and added here in batches. No foreign key: a batch must not fail because one workspace was
-- deleted meanwhile.
CREATE TABLE api_request_daily (
  workspace_id TEXT COLLATE "C" NOT NULL,
  day INTEGER NOT NULL,
  requests BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, day)
);
