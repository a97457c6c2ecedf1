-- When a prompt itself last changed (text, category, status), as the import gives it (its creation
-- time until then): the prompt list can be filtered on it and ordered by it for incremental sync.
ALTER TABLE prompts ADD COLUMN updated_at TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE prompts SET updated_at = created_at;
CREATE INDEX prompts_by_update ON prompts (workspace_id, updated_at, id);
