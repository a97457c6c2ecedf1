-- The workspace's audit log: who did what to which object, when, from where, with what outcome.
-- Written in the transaction of the change it records (one row per object a change reaches,
-- cascades included), or alone for a refused attempt; never a secret. Rows older than
-- AUDIT_LOG_RETENTION_DAYS are pruned (audit_log_by_time). actor_user_id is not a foreign key:
-- an entry outlives the member it names.
CREATE TABLE audit_log (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  occurred_at TEXT NOT NULL,
  actor_type TEXT NOT NULL CHECK (actor_type IN ('member', 'cli', 'anonymous')),
  actor_user_id TEXT,
  action TEXT NOT NULL,
  object_type TEXT,
  object_id TEXT,
  address TEXT,
  request_id TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('succeeded', 'forbidden', 'failed'))
) STRICT;
CREATE INDEX audit_log_by_workspace ON audit_log (workspace_id, occurred_at, id);
CREATE INDEX audit_log_by_time ON audit_log (occurred_at);
