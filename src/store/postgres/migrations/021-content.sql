-- The content library: research batches, the ideas they produce, articles, and the agent tasks
-- that do the work. Ids are also recorded in record_ids by the import.
CREATE TABLE research_batches (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  name TEXT COLLATE "C" NOT NULL,
  status TEXT COLLATE "C" NOT NULL CHECK (status IN ('QUEUED', 'PROCESSING', 'COMPLETED', 'FAILED')),
  topic_id TEXT COLLATE "C" NOT NULL REFERENCES topics(id) DEFERRABLE INITIALLY DEFERRED,
  buyer_stage TEXT COLLATE "C" CHECK (buyer_stage IN ('awareness', 'consideration', 'decision')),
  persona_name TEXT COLLATE "C",
  source TEXT COLLATE "C" NOT NULL,
  agent_log TEXT COLLATE "C" NOT NULL,  -- JSON array of {at, message}
  research_log TEXT COLLATE "C",        -- JSON object, or NULL
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX research_batches_by_workspace ON research_batches (workspace_id, created_at, id);

CREATE TABLE ideas (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  title TEXT COLLATE "C" NOT NULL,
  topic_id TEXT COLLATE "C" REFERENCES topics(id) DEFERRABLE INITIALLY DEFERRED,
  keywords TEXT COLLATE "C" NOT NULL, -- JSON array of strings
  buyer_stage TEXT COLLATE "C" CHECK (buyer_stage IN ('awareness', 'consideration', 'decision')),
  persona_name TEXT COLLATE "C",
  research_batch_id TEXT COLLATE "C" REFERENCES research_batches(id) DEFERRABLE INITIALLY DEFERRED,
  created_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX ideas_by_workspace ON ideas (workspace_id, created_at, id);
CREATE INDEX ideas_by_batch ON ideas (research_batch_id, created_at, id);
CREATE INDEX ideas_by_topic ON ideas (topic_id, created_at, id);

-- topic is the label given at import; an article linked to a topic (topic_id) reads that topic's
-- current name instead.
CREATE TABLE articles (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  title TEXT COLLATE "C" NOT NULL,
  buyer_stage TEXT COLLATE "C" CHECK (buyer_stage IN ('awareness', 'consideration', 'decision')),
  status TEXT COLLATE "C" NOT NULL CHECK (status IN ('DRAFT', 'PROCESSING', 'GENERATED', 'PUBLISHED', 'FAILED')),
  topic_id TEXT COLLATE "C" REFERENCES topics(id) DEFERRABLE INITIALLY DEFERRED,
  topic TEXT COLLATE "C" NOT NULL,
  keywords TEXT COLLATE "C" NOT NULL, -- JSON array of strings
  source TEXT COLLATE "C" NOT NULL,
  autowrite INTEGER NOT NULL CHECK (autowrite IN (0, 1)),
  planned_for TEXT COLLATE "C",
  planned_time TEXT COLLATE "C",
  written_on TEXT COLLATE "C",
  published_on TEXT COLLATE "C",
  research_batch_id TEXT COLLATE "C" REFERENCES research_batches(id) DEFERRABLE INITIALLY DEFERRED,
  body TEXT COLLATE "C",
  cover_image TEXT COLLATE "C",
  slug TEXT COLLATE "C",
  permalink TEXT COLLATE "C",
  meta_title TEXT COLLATE "C",
  meta_description TEXT COLLATE "C",
  post_url TEXT COLLATE "C",
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX articles_by_workspace ON articles (workspace_id, created_at, id);
CREATE INDEX articles_by_status ON articles (workspace_id, status, created_at, id);
CREATE INDEX articles_by_topic ON articles (topic_id, created_at, id);
-- Plan usage counts the articles written in a billing period.
CREATE INDEX articles_by_written_on ON articles (workspace_id, written_on);

CREATE TABLE agent_tasks (
  id TEXT COLLATE "C" PRIMARY KEY,
  workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  agent_id TEXT COLLATE "C" NOT NULL,
  agent_name TEXT COLLATE "C" NOT NULL,
  agent_icon TEXT COLLATE "C" NOT NULL,
  agent_short_description TEXT COLLATE "C" NOT NULL,
  name TEXT COLLATE "C" NOT NULL,
  status TEXT COLLATE "C" NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED')),
  inputs TEXT COLLATE "C" NOT NULL,  -- JSON object
  outputs TEXT COLLATE "C",          -- JSON object, or NULL
  input_tokens BIGINT NOT NULL CHECK (input_tokens >= 0),
  output_tokens BIGINT NOT NULL CHECK (output_tokens >= 0),
  total_tokens BIGINT NOT NULL CHECK (total_tokens >= 0),
  execution_duration BIGINT CHECK (execution_duration >= 0),
  started_at TEXT COLLATE "C",
  ended_at TEXT COLLATE "C",
  created_at TEXT COLLATE "C" NOT NULL
);
CREATE INDEX agent_tasks_by_workspace ON agent_tasks (workspace_id, created_at, id);
