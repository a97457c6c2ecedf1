-- Every record list can be filtered on its records' last update (`updated_after`) and ordered by it
-- (`order=updated_at`) for incremental sync. Ideas and agent tasks had no update time: an idea's is
-- its creation time until the import gives one; a task's is the latest of its creation, start and
-- end until then (greatest() is SQLite's max() of several arguments).
ALTER TABLE ideas ADD COLUMN updated_at TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE ideas SET updated_at = created_at;
ALTER TABLE agent_tasks ADD COLUMN updated_at TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE agent_tasks SET updated_at = greatest(created_at, coalesce(started_at, ''), coalesce(ended_at, ''));

CREATE INDEX topics_by_update ON topics (workspace_id, updated_at, id);
CREATE INDEX sitemap_urls_by_update ON sitemap_urls (workspace_id, updated_at, id);
CREATE INDEX pages_by_update ON pages (workspace_id, updated_at, id);
CREATE INDEX research_batches_by_update ON research_batches (workspace_id, updated_at, id);
CREATE INDEX ideas_by_update ON ideas (workspace_id, updated_at, id);
CREATE INDEX articles_by_update ON articles (workspace_id, updated_at, id);
CREATE INDEX agent_tasks_by_update ON agent_tasks (workspace_id, updated_at, id);
CREATE INDEX iq_records_by_update ON iq_records (workspace_id, type, updated_at, id);
