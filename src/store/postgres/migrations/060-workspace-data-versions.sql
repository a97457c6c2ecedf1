-- A counter per workspace that every import which changes a record raises, in the import's own
-- transaction. Downloads derive their ETag from it (and the query), so a client can ask "has
-- anything changed?" without the file being read again. A workspace without a row is at 0.
CREATE TABLE workspace_data_versions (
  workspace_id TEXT COLLATE "C" PRIMARY KEY REFERENCES workspaces(id) ON DELETE CASCADE,
  version BIGINT NOT NULL CHECK (version > 0)
);
