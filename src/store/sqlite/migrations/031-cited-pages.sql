-- Pages cited by answers, kept by the snapshot import in the same transaction as the snapshots:
-- one row per cited URL of a workspace, and a daily rollup of how many answers cite it, per
-- prompt and platform, so the cited-pages list reads rollup rows over its range, never answers.
CREATE TABLE cited_urls (
  id INTEGER PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  domain TEXT NOT NULL,          -- lower-case host of the URL
  title TEXT,                    -- title shown by the most recently collected answer that gave one
  title_collected_ms INTEGER,    -- when that answer was collected
  UNIQUE (workspace_id, url)
) STRICT;

-- citations = answers of that prompt and platform on that UTC day citing the URL (an answer
-- citing it twice counts once). Rows that fall to 0 are deleted.
CREATE TABLE cited_page_daily (
  workspace_id TEXT NOT NULL,
  day INTEGER NOT NULL,
  url_id INTEGER NOT NULL,
  prompt_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  citations INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, day, url_id, prompt_id, platform)
) STRICT, WITHOUT ROWID;
