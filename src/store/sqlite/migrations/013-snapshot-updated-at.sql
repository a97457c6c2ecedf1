-- When the service last stored a change to an answer: the import that inserted it or changed one of
-- its fields writes its own time (src/import-engine/records/snapshot.ts), so the answers list can be
-- filtered on it and ordered by it for incremental sync (openapi/paths/api_v1_visibility_answers.yaml).
-- Answers already stored carry no record of when they were imported. What is known is that each was
-- collected before it could be imported, and that none changes after this migration without a new
-- stamp: their collection time is the honest floor, kept no later than now (an answer collected "in
-- the future" would otherwise sort after every later import, which each stamp must follow).
ALTER TABLE snapshots ADD COLUMN updated_at TEXT NOT NULL DEFAULT '';
UPDATE snapshots SET updated_at = min(
  strftime('%Y-%m-%dT%H:%M:%S', collected_ms / 1000, 'unixepoch') || printf('.%03dZ', collected_ms % 1000),
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
);
-- The keyset of the list in update order, for the workspace and for one prompt (as for collection
-- order in 010), so a page costs its own rows however many answers the workspace or prompt has.
CREATE INDEX snapshots_by_update ON snapshots (workspace_id, updated_at, id);
CREATE INDEX snapshots_by_prompt_update ON snapshots (prompt_id, updated_at, id);
