import type {
  AttemptRecord, AttemptRow, ClaimedDelivery, DeliveryRow, RecordedAttempt, WebhookDeliveryStore,
} from '../interfaces/webhook-deliveries.js';
import { enqueueEventOn } from './outbox.js';
import { listenToOutbox } from './outbox-listener.js';
import type { PostgresPool } from './pool.js';
import { inTransaction, row, rows, run, value, type Queryable } from './query.js';
import { inTransactionWithoutWaiting } from './without-waiting.js';
import { WEBHOOK_DELIVERY_SQL } from '../webhook-delivery-statements.js';

// The statements of ../sqlite/webhook-deliveries.ts that differ from it (the rest are
// ../webhook-delivery-statements.ts), each saying how.
const SQL = {
  ...WEBHOOK_DELIVERY_SQL,
  // Enabled webhooks with due work: a read, never a lock. Ordered by id, where SQLite gives the
  // file's row order (the dispatcher shuffles them anyway).
  dueWebhookIds: `SELECT w.id FROM webhooks w
    WHERE w.enabled = 1 AND EXISTS (
      SELECT 1 FROM webhook_deliveries d
      WHERE d.webhook_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= @now
        AND (d.lease_until IS NULL OR d.lease_until < @now))
    ORDER BY w.id`,
  // SQLite serialises claimers with its write lock. Here several instances claim at once: each
  // locks the due rows it takes and skips the rows another claimer has locked (SKIP LOCKED), so no
  // two claim one delivery; a row another claimer leased and committed meanwhile is checked again
  // on its new version (READ COMMITTED), whose lease keeps it out. The webhook is read with the
  // claim (it may have been disabled or deleted since the poll) and its signing fields ride along.
  // An interrupted attempt (its lease expired without a recorded outcome) resumes under its own
  // number. The claimed rows come in the claim's order (next_attempt_at, id); SQLite's come in the
  // file's row order.
  claim: `WITH hook AS (
      SELECT id, url, secret, previous_secret, previous_secret_expires_at FROM webhooks WHERE id = @webhook_id AND enabled = 1
    ), due AS (
      SELECT d.id FROM webhook_deliveries d
      WHERE d.webhook_id IN (SELECT id FROM hook) AND d.status = 'pending' AND d.next_attempt_at <= @now
        AND (d.lease_until IS NULL OR d.lease_until < @now)
      ORDER BY d.next_attempt_at, d.id
      LIMIT @limit
      FOR UPDATE OF d SKIP LOCKED
    ), claimed AS (
      UPDATE webhook_deliveries d
      SET lease_until = @lease_until, lease_token = @lease_token,
          attempt = d.attempt + CASE WHEN d.lease_until IS NULL THEN 1 ELSE 0 END,
          max_attempts = greatest(@max_attempts, d.attempt + CASE WHEN d.lease_until IS NULL THEN 1 ELSE 0 END)
      FROM due WHERE d.id = due.id
      RETURNING d.id, d.webhook_id, d.workspace_id, d.event_type, d.payload, d.attempt, d.max_attempts, d.lease_token, d.next_attempt_at
    )
    SELECT c.id, c.webhook_id, c.workspace_id, c.event_type, c.payload, c.attempt, c.max_attempts, c.lease_token,
      hook.url, hook.secret, hook.previous_secret, hook.previous_secret_expires_at
    FROM claimed c CROSS JOIN hook
    ORDER BY c.next_attempt_at, c.id`,
  // Whether this failure disabled the webhook needs its state before the change. SQLite reads it
  // first under its write lock; here the row is locked as it is read (FOR NO KEY UPDATE), so an
  // owner's disable cannot slip in between and be taken for this one.
  countFailure: `WITH before AS (SELECT id, enabled FROM webhooks WHERE id = @webhook_id FOR NO KEY UPDATE)
    UPDATE webhooks w
    SET consecutive_failures = w.consecutive_failures + 1,
        enabled = CASE WHEN w.consecutive_failures + 1 >= @disable_after THEN 0 ELSE w.enabled END,
        disabled_at = CASE WHEN w.enabled = 1 AND w.consecutive_failures + 1 >= @disable_after THEN @now ELSE w.disabled_at END,
        updated_at = CASE WHEN w.enabled = 1 AND w.consecutive_failures + 1 >= @disable_after THEN @now ELSE w.updated_at END
    FROM before WHERE w.id = before.id
    RETURNING before.enabled AS enabled_before, w.enabled, w.consecutive_failures`,
  list: `SELECT * FROM webhook_deliveries
    WHERE webhook_id = @webhook_id AND workspace_id = @workspace_id
      AND (@event_type::text IS NULL OR event_type = @event_type)
      AND (@status::text IS NULL OR status = @status)
      AND (@after_created_at::text IS NULL OR (created_at, id) < (@after_created_at, @after_id))
    ORDER BY created_at DESC, id DESC
    LIMIT @limit`,
};

/** The delivery's new state for each way an attempt ends (the SET list of one UPDATE). */
const RESOLVED: Record<AttemptRecord['resolution']['kind'], string> = {
  delivered: `status = CASE WHEN requeued = 1 THEN 'recovered' ELSE 'delivered' END, requeued = 0,
    lease_until = NULL, lease_token = NULL, completed_at = @now`,
  retry: 'next_attempt_at = @next_attempt_at, lease_until = NULL, lease_token = NULL',
  failed: "status = 'failed', requeued = 0, lease_until = NULL, lease_token = NULL, completed_at = @now",
};

/**
 * Moves the delivery on if this claimer still holds its lease, and tells in the same round trip
 * whether the delivery still exists (its webhook may have been deleted meanwhile).
 */
const resolveSql = (kind: AttemptRecord['resolution']['kind']): string => `WITH resolved AS (
    UPDATE webhook_deliveries
    SET ${RESOLVED[kind]},
        http_status = @http_status, response_body = @response_body, response_time_ms = @response_time_ms, error = @error
    WHERE id = @id AND lease_token = @lease_token AND status = 'pending'
    RETURNING id)
  SELECT EXISTS (SELECT 1 FROM resolved) AS recorded, EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = @id) AS present`;

const NOT_RECORDED: RecordedAttempt = { recorded: false, webhook_disabled: false, consecutive_failures: null };

/**
 * Logs one attempt and moves its delivery (and the webhook's failure counter) on, inside one
 * transaction. A claimer that lost its lease still logs its attempt, but changes nothing else.
 */
async function recordOn(client: Queryable, input: AttemptRecord): Promise<RecordedAttempt> {
  const { delivery, outcome, resolution, now } = input;
  const next_attempt_at = resolution.kind === 'retry' ? resolution.next_attempt_at : null;
  const state = await row<{ recorded: boolean; present: boolean }>(client, resolveSql(resolution.kind), {
    id: delivery.id, lease_token: delivery.lease_token, now, next_attempt_at, ...outcome,
  });
  if (!state?.present) return NOT_RECORDED;
  const attempt = { delivery_id: delivery.id, attempt: delivery.attempt, started_at: input.started_at, ...outcome };
  await run(client, SQL.insertAttempt, { ...attempt, outcome: resolution.kind === 'delivered' ? 'success' : 'failure' });
  if (!state.recorded) return NOT_RECORDED;
  if (resolution.kind === 'retry') return { recorded: true, webhook_disabled: false, consecutive_failures: null };
  if (resolution.kind === 'delivered') {
    await run(client, SQL.resetFailures, [delivery.webhook_id]);
    return { recorded: true, webhook_disabled: false, consecutive_failures: 0 };
  }
  const counted = await row<{ enabled_before: number; enabled: number; consecutive_failures: number }>(client, SQL.countFailure, {
    webhook_id: delivery.webhook_id, disable_after: resolution.disable_after, now,
  });
  return {
    recorded: true,
    webhook_disabled: counted?.enabled_before === 1 && counted.enabled === 0,
    consecutive_failures: counted?.consecutive_failures ?? null,
  };
}

/**
 * The outbox, deliveries and their attempts over PostgreSQL, shared by every instance of the
 * service: the claim takes each due delivery for one claimer only, and the delivery loop's writes
 * give up on a row lock held longer than a moment (DatabaseBusyError) instead of waiting for it.
 */
export function createPostgresWebhookDeliveryStore(pool: PostgresPool): WebhookDeliveryStore {
  return {
    enqueueEvent(event) {
      return inTransaction(pool, (client) => enqueueEventOn(client, event));
    },
    async dueWebhookIds(now) {
      return (await rows<{ id: string }>(pool, SQL.dueWebhookIds, { now })).map((w) => w.id);
    },
    async claimDue(input) {
      if (input.limit <= 0 || input.rooms.size === 0) return [];
      return inTransactionWithoutWaiting(pool, async (client) => {
        const claimed: ClaimedDelivery[] = [];
        for (const [webhookId, room] of input.rooms) {
          const take = Math.min(room, input.limit - claimed.length);
          if (take <= 0) continue;
          claimed.push(...(await rows<ClaimedDelivery>(client, SQL.claim, {
            now: input.now,
            lease_until: input.lease_until,
            lease_token: input.lease_token,
            max_attempts: input.max_attempts,
            webhook_id: webhookId,
            limit: take,
          })));
          if (claimed.length >= input.limit) break;
        }
        return claimed;
      });
    },
    recordAttempt(input) {
      return inTransactionWithoutWaiting(pool, (client) => recordOn(client, input));
    },
    async release(id, leaseToken, now) {
      const expired = new Date(now.getTime() - 1).toISOString();
      await inTransactionWithoutWaiting(pool, (client) => run(client, SQL.release, { id, lease_token: leaseToken, expired }));
    },
    list({ after, ...filter }) {
      return rows<DeliveryRow>(pool, SQL.list, { ...filter, after_created_at: after?.[0] ?? null, after_id: after?.[1] ?? null });
    },
    get(workspaceId, webhookId, deliveryId) {
      return row<DeliveryRow>(pool, SQL.get, [deliveryId, webhookId, workspaceId]);
    },
    getById(deliveryId) {
      return row<DeliveryRow>(pool, SQL.getById, [deliveryId]);
    },
    async requeue(input) {
      return (await run(pool, SQL.requeue, input)) === 1;
    },
    recoverFailedSince(input) {
      return run(pool, SQL.recoverFailedSince, input);
    },
    attempts(deliveryId) {
      return rows<AttemptRow>(pool, SQL.attempts, [deliveryId]);
    },
    async countPending() {
      return (await value<number>(pool, SQL.countPending)) ?? 0;
    },
    watchEnqueued(onEnqueued, onError) {
      return listenToOutbox((pool.options as { connectionString: string }).connectionString, onEnqueued, onError);
    },
  };
}
