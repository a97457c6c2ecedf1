-- The content map: topic clusters, the sites (sitemaps and single page URLs) a workspace added,
-- and the pages found through them. Ids are also recorded in record_ids by the import.
CREATE TABLE topics (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  stage TEXT NOT NULL CHECK (stage IN ('PROCESSING', 'READY', 'COMPLETED')),
  keywords TEXT NOT NULL, -- JSON array of {keyword, msv, kd}, by msv descending then keyword
  total_msv INTEGER NOT NULL CHECK (total_msv >= 0), -- sum of the keywords' msv, kept with them
  msv_badge TEXT NOT NULL CHECK (msv_badge IN ('LOW', 'MEDIUM', 'HIGH')),
  avg_kd INTEGER NOT NULL CHECK (avg_kd BETWEEN 0 AND 100), -- rounded mean of the keywords' kd
  kd_badge TEXT NOT NULL CHECK (kd_badge IN ('LOW', 'MEDIUM', 'HIGH')),
  coverage INTEGER NOT NULL CHECK (coverage BETWEEN 0 AND 100),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX topics_by_workspace ON topics (workspace_id, created_at, id);
CREATE INDEX topics_by_stage ON topics (workspace_id, stage, created_at, id);

CREATE TABLE sitemap_urls (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('sitemap', 'page')),
  url_count INTEGER NOT NULL CHECK (url_count >= 0),
  last_fetched_at TEXT NOT NULL,
  processing_total INTEGER NOT NULL CHECK (processing_total >= 0),
  processing_ready INTEGER NOT NULL CHECK (processing_ready >= 0),
  processing_failed INTEGER NOT NULL CHECK (processing_failed >= 0),
  processing_completed INTEGER NOT NULL CHECK (processing_completed IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX sitemap_urls_by_workspace ON sitemap_urls (workspace_id, created_at, id);
CREATE INDEX sitemap_urls_by_type ON sitemap_urls (workspace_id, type, created_at, id);

CREATE TABLE pages (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  title TEXT,
  site_id TEXT NOT NULL REFERENCES sitemap_urls(id) DEFERRABLE INITIALLY DEFERRED,
  topic_id TEXT REFERENCES topics(id) DEFERRABLE INITIALLY DEFERRED,
  status TEXT NOT NULL CHECK (status IN ('PROCESSING', 'READY', 'FAILED')),
  last_fetched_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX pages_by_workspace ON pages (workspace_id, created_at, id);
CREATE INDEX pages_by_site ON pages (site_id, created_at, id);
CREATE INDEX pages_by_topic ON pages (topic_id, created_at, id);
CREATE INDEX pages_by_status ON pages (workspace_id, status, created_at, id);
-- Cited pages of the visibility area are matched to the brand's own content-map pages by URL.
CREATE INDEX pages_by_url ON pages (workspace_id, url);
