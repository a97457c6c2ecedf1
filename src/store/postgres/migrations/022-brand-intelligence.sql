-- Brand-intelligence records (products, personas, brand voice, content types, visual
-- guidelines): one table, the kind in `type`, the kind-specific analysis as JSON in `metadata`.
CREATE TABLE iq_records (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  type TEXT COLLATE "C" NOT NULL CHECK (type IN ('product', 'persona', 'voice', 'content_type', 'visual_guideline')),
  title TEXT COLLATE "C" NOT NULL,
  description TEXT COLLATE "C",
  content TEXT COLLATE "C",
  metadata TEXT COLLATE "C" NOT NULL,          -- JSON object, shaped by type
  product_id TEXT COLLATE "C" REFERENCES iq_records(id) DEFERRABLE INITIALLY DEFERRED,
  product_urls TEXT COLLATE "C",               -- JSON array of URLs, or NULL (likewise the other *_urls)
  voice_sample_urls TEXT COLLATE "C",
  content_sample_urls TEXT COLLATE "C",
  images_urls TEXT COLLATE "C",
  is_default INTEGER NOT NULL CHECK (is_default IN (0, 1)),
  stage TEXT COLLATE "C" NOT NULL CHECK (stage IN ('PROCESSING', 'READY')),
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX iq_records_by_type ON iq_records (workspace_id, type, created_at, id);
CREATE INDEX iq_records_by_stage ON iq_records (workspace_id, type, stage, created_at, id);
-- At most one default record per kind in a workspace.
CREATE UNIQUE INDEX iq_records_one_default ON iq_records (workspace_id, type) WHERE is_default = 1;
