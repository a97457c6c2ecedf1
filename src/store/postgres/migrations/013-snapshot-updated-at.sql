-- When the service last stored a change to an answer: the import that inserted it or changed one of
-- its fields writes its own time, so the answers list can be filtered on it and ordered by it for
-- incremental sync (openapi/paths/api_v1_visibility_answers.yaml). Answers stored before carry their
-- collection time, kept no later than now, as SQLite's file computes it: the whole seconds of
-- collected_ms / 1000 (integer division, as SQLite's) in UTC, then its last three digits as the
-- milliseconds; least() is SQLite's min() of two values, compared by code point. A PostgreSQL
-- database gets every file of this folder in its first run, so the table is empty here; kept so the
-- two files say the same.
ALTER TABLE snapshots ADD COLUMN updated_at TEXT COLLATE "C" NOT NULL DEFAULT '';
UPDATE snapshots SET updated_at = least(
  (to_char(to_timestamp(collected_ms / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS')
    || '.' || lpad((collected_ms % 1000)::text, 3, '0') || 'Z') COLLATE "C",
  to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
);
-- The keyset of the list in update order, for the workspace and for one prompt (as for collection
-- order in 010), so a page costs its own rows however many answers the workspace or prompt has.
CREATE INDEX snapshots_by_update ON snapshots (workspace_id, updated_at, id);
CREATE INDEX snapshots_by_prompt_update ON snapshots (prompt_id, updated_at, id);
