import type { Store } from '../../store/index.js';
import type { DeliveryRow, DeliveryStatus } from '../../store/interfaces/webhook-deliveries.js';
import type { components } from '../../../generated/openapi.js';
import { parseStoredEnvelope } from '../../store/event-envelopes.js';
import type { Cursors, CursorScope } from '../../pagination/cursor.js';
import { ServiceError } from '../../errors/service-error.js';
import { instantOf } from '../../store/timestamp.js';

type WebhookDelivery = components['schemas']['WebhookDelivery'];
type WebhookDeliveryDetail = components['schemas']['WebhookDeliveryDetail'];
type WebhookDeliveryAttempt = components['schemas']['WebhookDeliveryAttempt'];

/** One delivery as the owner sees it: the latest attempt's figures, and the state of the whole. */
function toDeliveryView(row: DeliveryRow): WebhookDelivery {
  const payload = parseStoredEnvelope(row.payload);
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    // The row's event_type column is the envelope's `event`, kept apart for filtering.
    event_type: payload.event,
    payload,
    http_status: row.http_status,
    response_body: row.response_body,
    response_time_ms: row.response_time_ms,
    attempt: row.attempt,
    max_attempts: row.max_attempts,
    delivery_status: row.status,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    created_at: row.created_at,
  };
}

/**
 * One delivery of the webhook with every attempt made so far, oldest first; undefined when the
 * webhook of that workspace has no such delivery.
 */
export async function getDelivery(
  store: Store,
  input: { workspaceId: string; webhookId: string; deliveryId: string },
): Promise<WebhookDeliveryDetail | undefined> {
  const row = await store.webhookDeliveries.get(input.workspaceId, input.webhookId, input.deliveryId);
  if (!row) return undefined;
  const attempts = (await store.webhookDeliveries.attempts(row.id)).map((a): WebhookDeliveryAttempt => ({
    attempt: a.attempt,
    started_at: a.started_at,
    outcome: a.outcome,
    http_status: a.http_status,
    response_time_ms: a.response_time_ms,
    response_body: a.response_body,
    error: a.error,
  }));
  return { ...toDeliveryView(row), attempts };
}

/**
 * A webhook's deliveries, newest first (ties broken by id, so paging never skips or repeats one).
 * A cursor is bound to the webhook and the filters; anything else is a 422 naming `cursor`.
 */
export async function listDeliveries(
  store: Store,
  cursors: Cursors,
  input: { workspaceId: string; webhookId: string; eventType?: string | undefined; status?: DeliveryStatus | undefined; limit: number; cursor?: string | undefined },
): Promise<components['schemas']['WebhookDeliveryList']> {
  const scope: CursorScope = {
    list: `listWebhookDeliveries:${input.webhookId}`,
    workspaceId: input.workspaceId,
    filters: { event_type: input.eventType, status: input.status },
  };
  const after = input.cursor === undefined ? null : cursors.decode(scope, input.cursor, ['timestamp', 'text']);
  const rows = await store.webhookDeliveries.list({
    workspace_id: input.workspaceId,
    webhook_id: input.webhookId,
    event_type: input.eventType ?? null,
    status: input.status ?? null,
    after,
    limit: input.limit + 1,
  });
  const page = cursors.takePage(rows, input.limit, scope, (row) => [row.created_at, row.id]);
  return { items: page.rows.map(toDeliveryView), next_cursor: page.next_cursor };
}

/**
 * Sends one delivery again, with the same body and `webhook-id`: a completed one starts a new round
 * of attempts now (a failed one shows `recovered` once it gets through); a pending one is made due
 * now. Undefined when the webhook of that workspace has no such delivery.
 */
export async function redeliver(
  store: Store,
  input: { workspaceId: string; webhookId: string; deliveryId: string; now: Date },
): Promise<WebhookDelivery | undefined> {
  const found = await store.webhookDeliveries.requeue({
    workspace_id: input.workspaceId,
    webhook_id: input.webhookId,
    id: input.deliveryId,
    now: input.now.toISOString(),
  });
  if (!found) return undefined;
  const row = await store.webhookDeliveries.get(input.workspaceId, input.webhookId, input.deliveryId);
  return row && toDeliveryView(row);
}

/**
 * Queues again every failed delivery of the webhook created at or after `since`; each shows
 * `recovered` once it gets through. Deliveries of a disabled webhook wait until it is enabled.
 */
export async function recoverFailedSince(
  store: Store,
  input: { workspaceId: string; webhookId: string; since: Date | string; now: Date },
): Promise<{ recovered: number }> {
  const since = input.since instanceof Date ? input.since : instantOf(input.since);
  if (since === undefined) throw ServiceError.invalid({ in: 'body', name: 'since', message: 'must be an RFC 3339 date-time, e.g. 2026-01-15T00:00:00Z' });
  const recovered = await store.webhookDeliveries.recoverFailedSince({
    workspace_id: input.workspaceId,
    webhook_id: input.webhookId,
    since: since.toISOString(),
    now: input.now.toISOString(),
  });
  return { recovered };
}
