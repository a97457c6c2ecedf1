-- The answers of the administration API's POSTs that carried an Idempotency-Key, per workspace
-- and key, for 24 hours (expires_at): a retry with the same key gets the first answer back
-- instead of acting twice. A row is 'running' from the first request's claim until its write
-- commits, which turns it 'done' in the same transaction; a claim whose holder died is taken over
-- once lease_until has passed. An answer that carried a secret is never kept: body is then null
-- and resource_id names what was created.
CREATE TABLE idempotency_keys (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
  idempotency_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL, -- SHA-256 of the operation, its path and its body
  state TEXT NOT NULL CHECK (state IN ('running', 'done')),
  token TEXT NOT NULL, -- the claim's holder; a takeover replaces it
  lease_until TEXT NOT NULL,
  status INTEGER,
  body TEXT,
  resource_id TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (workspace_id, idempotency_key)
) STRICT;
CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (workspace_id, expires_at);
