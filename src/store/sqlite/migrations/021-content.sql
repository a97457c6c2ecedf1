-- The content library: research batches, the ideas they produce, articles, and the agent tasks
-- that do the work. Ids are also recorded in record_ids by the import.
CREATE TABLE research_batches (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED')),
  topic_id TEXT NOT NULL REFERENCES topics(id) DEFERRABLE INITIALLY DEFERRED,
  buyer_stage TEXT CHECK (buyer_stage IN ('awareness', 'consideration', 'decision')),
  persona_name TEXT,
  source TEXT NOT NULL,
  agent_log TEXT NOT NULL,  -- JSON array of {at, message}
  research_log TEXT,        -- JSON object, or NULL
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX research_batches_by_workspace ON research_batches (workspace_id, created_at, id);

CREATE TABLE ideas (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  topic_id TEXT REFERENCES topics(id) DEFERRABLE INITIALLY DEFERRED,
  keywords TEXT NOT NULL, -- JSON array of strings
  buyer_stage TEXT CHECK (buyer_stage IN ('awareness', 'consideration', 'decision')),
  persona_name TEXT,
  research_batch_id TEXT REFERENCES research_batches(id) DEFERRABLE INITIALLY DEFERRED,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX ideas_by_workspace ON ideas (workspace_id, created_at, id);
CREATE INDEX ideas_by_batch ON ideas (research_batch_id, created_at, id);
CREATE INDEX ideas_by_topic ON ideas (topic_id, created_at, id);

-- topic is the label given at import; an article linked to a topic (topic_id) reads that topic's
-- current name instead.
CREATE TABLE articles (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  buyer_stage TEXT CHECK (buyer_stage IN ('awareness', 'consideration', 'decision')),
  status TEXT NOT NULL CHECK (status IN ('DRAFT', 'PROCESSING', 'GENERATED', 'PUBLISHED', 'FAILED')),
  topic_id TEXT REFERENCES topics(id) DEFERRABLE INITIALLY DEFERRED,
  topic TEXT NOT NULL,
  keywords TEXT NOT NULL, -- JSON array of strings
  source TEXT NOT NULL,
  autowrite INTEGER NOT NULL CHECK (autowrite IN (0, 1)),
  planned_for TEXT,
  planned_time TEXT,
  written_on TEXT,
  published_on TEXT,
  research_batch_id TEXT REFERENCES research_batches(id) DEFERRABLE INITIALLY DEFERRED,
  body TEXT,
  cover_image TEXT,
  slug TEXT,
  permalink TEXT,
  meta_title TEXT,
  meta_description TEXT,
  post_url TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX articles_by_workspace ON articles (workspace_id, created_at, id);
CREATE INDEX articles_by_status ON articles (workspace_id, status, created_at, id);
CREATE INDEX articles_by_topic ON articles (topic_id, created_at, id);
-- Plan usage counts the articles written in a billing period.
CREATE INDEX articles_by_written_on ON articles (workspace_id, written_on);

CREATE TABLE agent_tasks (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  agent_id TEXT NOT NULL,
  agent_name TEXT NOT NULL,
  agent_icon TEXT NOT NULL,
  agent_short_description TEXT NOT NULL,
  name TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED')),
  inputs TEXT NOT NULL,  -- JSON object
  outputs TEXT,          -- JSON object, or NULL
  input_tokens INTEGER NOT NULL CHECK (input_tokens >= 0),
  output_tokens INTEGER NOT NULL CHECK (output_tokens >= 0),
  total_tokens INTEGER NOT NULL CHECK (total_tokens >= 0),
  execution_duration INTEGER CHECK (execution_duration >= 0),
  started_at TEXT,
  ended_at TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX agent_tasks_by_workspace ON agent_tasks (workspace_id, created_at, id);
