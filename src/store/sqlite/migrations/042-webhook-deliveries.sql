-- One delivery per (event, subscribed webhook), written by the outbox in the same transaction as
-- the change that caused the event. `payload` holds the exact body bytes, fixed at enqueue time, so
-- every retry sends identical bytes; the delivery id is the `webhook-id` header, stable across retries.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  event_id TEXT NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
  webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  workspace_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'recovered', 'failed')),
  -- 1 while a failed delivery is queued again (redeliver, recover): its success is shown as `recovered`.
  requeued INTEGER NOT NULL DEFAULT 0 CHECK (requeued IN (0, 1)),
  -- Attempts started in the current round; an attempt interrupted by a crash (lease expired) is
  -- resumed under the same number rather than counted twice.
  attempt INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  next_attempt_at TEXT NOT NULL,
  lease_until TEXT,
  lease_token TEXT,
  -- The latest recorded attempt, denormalised for the deliveries list.
  http_status INTEGER,
  response_body TEXT,
  response_time_ms INTEGER,
  error TEXT,
  created_at TEXT NOT NULL,
  completed_at TEXT,
  UNIQUE (event_id, webhook_id)
) STRICT;
-- The claim: due work of one webhook, in order.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (webhook_id, next_attempt_at, id) WHERE status = 'pending';
-- Attempts in flight per webhook (the per-webhook concurrency bound).
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (webhook_id, lease_until)
  WHERE status = 'pending' AND lease_until IS NOT NULL;
-- The deliveries list (newest first) and recovery by time.
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at, id);

-- Every attempt, kept for the owner's inspection.
CREATE TABLE webhook_delivery_attempts (
  id INTEGER PRIMARY KEY,
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  started_at TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('success', 'failure')),
  http_status INTEGER,
  response_time_ms INTEGER NOT NULL,
  response_body TEXT, -- cut to 2 KB
  error TEXT
) STRICT;
CREATE INDEX webhook_delivery_attempts_by_delivery ON webhook_delivery_attempts (delivery_id, id);
