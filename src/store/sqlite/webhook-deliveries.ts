import type {
  AttemptRecord, AttemptRow, ClaimedDelivery, ClaimInput, DeliveryListQuery, DeliveryRow, OutboxEvent, RecordedAttempt, WebhookDeliveryStore,
} from '../interfaces/webhook-deliveries.js';
import type { EventType } from '../../../generated/events.js';
import { writeWithoutWaiting, type Db } from './database.js';
import { enqueueEvent } from './outbox.js';
import { promised, resolved } from './promised.js';
import { WEBHOOK_DELIVERY_SQL } from '../webhook-delivery-statements.js';

interface ClaimWebhook {
  id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
}

/** The outbox, deliveries and their attempts: the claim, the outcome of each attempt, the owner's views and actions. */
export function createWebhookDeliveryStore(db: Db): WebhookDeliveryStore {
  const statements = {
    // Enabled webhooks with due work: a read, so an idle or saturated poll never takes the write lock.
    dueWebhookIds: db
      .prepare(
        `SELECT w.id FROM webhooks w
         WHERE w.enabled = 1 AND EXISTS (
           SELECT 1 FROM webhook_deliveries d
           WHERE d.webhook_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= @now
             AND (d.lease_until IS NULL OR d.lease_until < @now))`,
      )
      .pluck(),
    webhookForClaim: db.prepare(
      'SELECT id, url, secret, previous_secret, previous_secret_expires_at FROM webhooks WHERE id = ? AND enabled = 1',
    ),
    // An interrupted attempt (its lease expired without a recorded outcome) resumes under its own number.
    claim: db.prepare(
      `UPDATE webhook_deliveries
       SET lease_until = @lease_until, lease_token = @lease_token,
           attempt = attempt + (lease_until IS NULL),
           max_attempts = max(@max_attempts, attempt + (lease_until IS NULL))
       WHERE id IN (
         SELECT id FROM webhook_deliveries
         WHERE webhook_id = @webhook_id AND status = 'pending' AND next_attempt_at <= @now
           AND (lease_until IS NULL OR lease_until < @now)
         ORDER BY next_attempt_at, id
         LIMIT @limit)
       RETURNING id, webhook_id, workspace_id, event_type, payload, attempt, max_attempts, lease_token`,
    ),
    markDelivered: db.prepare(
      `UPDATE webhook_deliveries
       SET status = CASE WHEN requeued = 1 THEN 'recovered' ELSE 'delivered' END, requeued = 0,
           lease_until = NULL, lease_token = NULL, completed_at = @now,
           http_status = @http_status, response_body = @response_body, response_time_ms = @response_time_ms, error = @error
       WHERE id = @id AND lease_token = @lease_token AND status = 'pending'`,
    ),
    markRetry: db.prepare(
      `UPDATE webhook_deliveries
       SET next_attempt_at = @next_attempt_at, lease_until = NULL, lease_token = NULL,
           http_status = @http_status, response_body = @response_body, response_time_ms = @response_time_ms, error = @error
       WHERE id = @id AND lease_token = @lease_token AND status = 'pending'`,
    ),
    markFailed: db.prepare(
      `UPDATE webhook_deliveries
       SET status = 'failed', requeued = 0, lease_until = NULL, lease_token = NULL, completed_at = @now,
           http_status = @http_status, response_body = @response_body, response_time_ms = @response_time_ms, error = @error
       WHERE id = @id AND lease_token = @lease_token AND status = 'pending'`,
    ),
    exists: db.prepare('SELECT 1 FROM webhook_deliveries WHERE id = ?').pluck(),
    insertAttempt: db.prepare(WEBHOOK_DELIVERY_SQL.insertAttempt),
    webhookEnabled: db.prepare('SELECT enabled FROM webhooks WHERE id = ?').pluck(),
    resetFailures: db.prepare(WEBHOOK_DELIVERY_SQL.resetFailures),
    countFailure: db.prepare(
      `UPDATE webhooks
       SET consecutive_failures = consecutive_failures + 1,
           enabled = CASE WHEN consecutive_failures + 1 >= @disable_after THEN 0 ELSE enabled END,
           disabled_at = CASE WHEN enabled = 1 AND consecutive_failures + 1 >= @disable_after THEN @now ELSE disabled_at END,
           updated_at = CASE WHEN enabled = 1 AND consecutive_failures + 1 >= @disable_after THEN @now ELSE updated_at END
       WHERE id = @webhook_id
       RETURNING enabled, consecutive_failures`,
    ),
    release: db.prepare(WEBHOOK_DELIVERY_SQL.release),
    list: db.prepare(
      `SELECT * FROM webhook_deliveries
       WHERE webhook_id = @webhook_id AND workspace_id = @workspace_id
         AND (@event_type IS NULL OR event_type = @event_type)
         AND (@status IS NULL OR status = @status)
         AND (@after_created_at IS NULL OR (created_at, id) < (@after_created_at, @after_id))
       ORDER BY created_at DESC, id DESC
       LIMIT @limit`,
    ),
    get: db.prepare(WEBHOOK_DELIVERY_SQL.get),
    getById: db.prepare(WEBHOOK_DELIVERY_SQL.getById),
    requeue: db.prepare(WEBHOOK_DELIVERY_SQL.requeue),
    recoverFailedSince: db.prepare(WEBHOOK_DELIVERY_SQL.recoverFailedSince),
    attempts: db.prepare(WEBHOOK_DELIVERY_SQL.attempts),
    countPending: db.prepare(WEBHOOK_DELIVERY_SQL.countPending).pluck(),
  };

  const claimTx = db.transaction(
    (input: ClaimInput) => {
      const claimed: ClaimedDelivery[] = [];
      for (const [webhookId, room] of input.rooms) {
        const take = Math.min(room, input.limit - claimed.length);
        if (take <= 0) continue;
        // Re-read inside the transaction: the webhook may have been disabled or deleted since the poll.
        const w = statements.webhookForClaim.get(webhookId) as ClaimWebhook | undefined;
        if (!w) continue;
        const rows = statements.claim.all({
          now: input.now,
          lease_until: input.lease_until,
          lease_token: input.lease_token,
          max_attempts: input.max_attempts,
          webhook_id: w.id,
          limit: take,
        }) as Omit<ClaimedDelivery, 'url' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'>[];
        for (const row of rows) {
          claimed.push({
            ...row,
            url: w.url,
            secret: w.secret,
            previous_secret: w.previous_secret,
            previous_secret_expires_at: w.previous_secret_expires_at,
          });
        }
        if (claimed.length >= input.limit) break;
      }
      return claimed;
    },
  );

  const recordTx = db.transaction(
    (input: AttemptRecord): RecordedAttempt => {
      const { delivery, outcome, resolution, now } = input;
      const params = { id: delivery.id, lease_token: delivery.lease_token, now, ...outcome };
      let changes: number;
      if (resolution.kind === 'delivered') changes = statements.markDelivered.run(params).changes;
      else if (resolution.kind === 'retry') changes = statements.markRetry.run({ ...params, next_attempt_at: resolution.next_attempt_at }).changes;
      else changes = statements.markFailed.run(params).changes;

      const recorded = changes === 1;
      if (!recorded && statements.exists.get(delivery.id) === undefined) {
        return { recorded: false, webhook_disabled: false, consecutive_failures: null };
      }
      statements.insertAttempt.run({
        delivery_id: delivery.id,
        attempt: delivery.attempt,
        started_at: input.started_at,
        outcome: resolution.kind === 'delivered' ? 'success' : 'failure',
        ...outcome,
      });
      if (!recorded) return { recorded: false, webhook_disabled: false, consecutive_failures: null };
      if (resolution.kind === 'delivered') {
        statements.resetFailures.run(delivery.webhook_id);
        return { recorded: true, webhook_disabled: false, consecutive_failures: 0 };
      }
      if (resolution.kind === 'failed') {
        const before = statements.webhookEnabled.get(delivery.webhook_id);
        const after = statements.countFailure.get({ webhook_id: delivery.webhook_id, disable_after: resolution.disable_after, now }) as
          | { enabled: number; consecutive_failures: number }
          | undefined;
        return {
          recorded: true,
          webhook_disabled: before === 1 && after?.enabled === 0,
          consecutive_failures: after?.consecutive_failures ?? null,
        };
      }
      return { recorded: true, webhook_disabled: false, consecutive_failures: null };
    },
  );

  // The delivery loop's writes never wait for the lock (see the interface).
  const deliveries = promised({
    /** Enabled webhooks with deliveries due and not leased: a read, never the write lock. */
    dueWebhookIds(now: string): string[] {
      return statements.dueWebhookIds.all({ now }) as string[];
    },
    /**
     * Reserves due deliveries in one write transaction: up to `rooms.get(webhook)` of each listed
     * webhook that is still enabled, at most `limit` in all. Each gets a lease and its attempt counted.
     */
    claimDue(input: ClaimInput): ClaimedDelivery[] {
      if (input.limit <= 0 || input.rooms.size === 0) return [];
      return writeWithoutWaiting(db, () => claimTx.immediate(input));
    },
    /** Logs one attempt and moves its delivery (and the webhook's failure counter) on, atomically. */
    recordAttempt(input: AttemptRecord): RecordedAttempt {
      return writeWithoutWaiting(db, () => recordTx.immediate(input));
    },
    /** Gives up a lease early (shutdown), so the delivery is claimed again at once, under the same attempt number. */
    release(id: string, leaseToken: string, now: Date): void {
      writeWithoutWaiting(db, () => statements.release.run({ id, lease_token: leaseToken, expired: new Date(now.getTime() - 1).toISOString() }));
    },
    list(input: DeliveryListQuery): DeliveryRow[] {
      return statements.list.all({
        workspace_id: input.workspace_id,
        webhook_id: input.webhook_id,
        event_type: input.event_type,
        status: input.status,
        after_created_at: input.after?.[0] ?? null,
        after_id: input.after?.[1] ?? null,
        limit: input.limit,
      }) as DeliveryRow[];
    },
    get(workspaceId: string, webhookId: string, deliveryId: string): DeliveryRow | undefined {
      return statements.get.get(deliveryId, webhookId, workspaceId) as DeliveryRow | undefined;
    },
    getById(deliveryId: string): DeliveryRow | undefined {
      return statements.getById.get(deliveryId) as DeliveryRow | undefined;
    },
    /** Returns false when there is no such delivery of that webhook in that workspace. */
    requeue(input: { workspace_id: string; webhook_id: string; id: string; now: string }): boolean {
      return statements.requeue.run(input).changes === 1;
    },
    recoverFailedSince(input: { workspace_id: string; webhook_id: string; since: string; now: string }): number {
      return statements.recoverFailedSince.run(input).changes;
    },
    attempts(deliveryId: string): AttemptRow[] {
      return statements.attempts.all(deliveryId) as AttemptRow[];
    },
    countPending(): number {
      return statements.countPending.get() as number;
    },
  });
  return {
    ...deliveries,
    enqueueEvent: <E extends EventType>(event: OutboxEvent<E>): Promise<string> => resolved(() => enqueueEvent(db, event)),
    // One process writes a SQLite file at a time, and nothing tells another process of a commit: the poll sees it.
    watchEnqueued: async () => async () => undefined,
  };
}
