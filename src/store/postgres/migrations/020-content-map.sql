-- The content map: topic clusters, the sites (sitemaps and single page URLs) a workspace added,
-- and the pages found through them. Ids are also recorded in record_ids by the import.
CREATE TABLE topics (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT COLLATE "C" NOT NULL,
  stage TEXT COLLATE "C" NOT NULL CHECK (stage IN ('PROCESSING', 'READY', 'COMPLETED')),
  keywords TEXT COLLATE "C" NOT NULL, -- JSON array of {keyword, msv, kd}, by msv descending then keyword
  total_msv BIGINT NOT NULL CHECK (total_msv >= 0), -- sum of the keywords' msv, kept with them
  msv_badge TEXT COLLATE "C" NOT NULL CHECK (msv_badge IN ('LOW', 'MEDIUM', 'HIGH')),
  avg_kd INTEGER NOT NULL CHECK (avg_kd BETWEEN 0 AND 100), -- rounded mean of the keywords' kd
  kd_badge TEXT COLLATE "C" NOT NULL CHECK (kd_badge IN ('LOW', 'MEDIUM', 'HIGH')),
  coverage INTEGER NOT NULL CHECK (coverage BETWEEN 0 AND 100),
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX topics_by_workspace ON topics (workspace_id, created_at, id);
CREATE INDEX topics_by_stage ON topics (workspace_id, stage, created_at, id);

CREATE TABLE sitemap_urls (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  url TEXT COLLATE "C" NOT NULL,
  type TEXT COLLATE "C" NOT NULL CHECK (type IN ('sitemap', 'page')),
  url_count BIGINT NOT NULL CHECK (url_count >= 0),
  last_fetched_at TEXT COLLATE "C" NOT NULL,
  processing_total BIGINT NOT NULL CHECK (processing_total >= 0),
  processing_ready BIGINT NOT NULL CHECK (processing_ready >= 0),
  processing_failed BIGINT NOT NULL CHECK (processing_failed >= 0),
  processing_completed INTEGER NOT NULL CHECK (processing_completed IN (0, 1)),
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX sitemap_urls_by_workspace ON sitemap_urls (workspace_id, created_at, id);
CREATE INDEX sitemap_urls_by_type ON sitemap_urls (workspace_id, type, created_at, id);

CREATE TABLE pages (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  url TEXT COLLATE "C" NOT NULL,
  title TEXT COLLATE "C",
  site_id TEXT COLLATE "C" NOT NULL REFERENCES sitemap_urls(id) DEFERRABLE INITIALLY DEFERRED,
  topic_id TEXT COLLATE "C" REFERENCES topics(id) DEFERRABLE INITIALLY DEFERRED,
  status TEXT COLLATE "C" NOT NULL CHECK (status IN ('PROCESSING', 'READY', 'FAILED')),
  last_fetched_at TEXT COLLATE "C",
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX pages_by_workspace ON pages (workspace_id, created_at, id);
CREATE INDEX pages_by_site ON pages (site_id, created_at, id);
CREATE INDEX pages_by_topic ON pages (topic_id, created_at, id);
CREATE INDEX pages_by_status ON pages (workspace_id, status, created_at, id);
-- Cited pages of the visibility area are matched to the brand's own content-map pages by URL.
CREATE INDEX pages_by_url ON pages (workspace_id, url);
