import type { components } from '../../../generated/openapi.js';
import type { EventPayloads, EventType } from '../../../generated/events.js';

export type DeliveryStatus = components['schemas']['DeliveryStatus'];

export interface DeliveryRow {
  id: string;
  event_id: string;
  webhook_id: string;
  workspace_id: string;
  event_type: string;
  payload: string;
  status: DeliveryStatus;
  requeued: 0 | 1;
  attempt: number;
  max_attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  lease_token: string | null;
  http_status: number | null;
  response_body: string | null;
  response_time_ms: number | null;
  error: string | null;
  created_at: string;
  completed_at: string | null;
}

export interface AttemptRow {
  id: number;
  delivery_id: string;
  attempt: number;
  started_at: string;
  outcome: 'success' | 'failure';
  http_status: number | null;
  response_time_ms: number;
  response_body: string | null;
  error: string | null;
}

/** A delivery reserved for one attempt, with what sending it needs from its webhook. */
export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  workspace_id: string;
  event_type: string;
  payload: string;
  attempt: number;
  max_attempts: number;
  lease_token: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
}

export interface AttemptOutcome {
  http_status: number | null;
  response_body: string | null;
  response_time_ms: number;
  error: string | null;
}

/**
 * How an attempt ends: `delivered`, `retry` at a later time, or `failed` for good (the last attempt).
 */
export type AttemptResolution =
  | { kind: 'delivered' }
  | { kind: 'retry'; next_attempt_at: string }
  | { kind: 'failed'; disable_after: number };

/**
 * `recorded` is false when the lease was lost meanwhile (another claimer owns the delivery, or it was
 * dropped): the attempt is still logged if the delivery exists, but its state is left alone.
 */
export interface RecordedAttempt {
  recorded: boolean;
  /** The webhook was disabled by this failure (its consecutive failed deliveries reached the limit). */
  webhook_disabled: boolean;
  consecutive_failures: number | null;
}

export interface ClaimInput {
  now: string;
  lease_until: string;
  lease_token: string;
  /** Webhook id → how many of its deliveries this claim may take. */
  rooms: ReadonlyMap<string, number>;
  limit: number;
  max_attempts: number;
}

export interface AttemptRecord {
  delivery: Pick<ClaimedDelivery, 'id' | 'webhook_id' | 'lease_token' | 'attempt'>;
  started_at: string;
  now: string;
  outcome: AttemptOutcome;
  resolution: AttemptResolution;
}

/** Which deliveries of a webhook to list, newest first: those before `after` (created_at, id), if given. */
export interface DeliveryListQuery {
  workspace_id: string;
  webhook_id: string;
  event_type: string | null;
  status: DeliveryStatus | null;
  after: readonly [string, string] | null;
  limit: number;
}

/** An event to write to the outbox. */
export interface OutboxEvent<E extends EventType = EventType> {
  workspaceId: string;
  type: E;
  /** The record as the read API shows it (the AsyncAPI message's `data`). */
  data: EventPayloads[E];
  /** When it happened; now by default. */
  at?: Date;
}

/**
 * The outbox, deliveries and their attempts: the claim, the outcome of each attempt, the owner's
 * views and actions. The writes the delivery loop makes in the background (`claimDue`,
 * `recordAttempt`, `release`) never wait for a lock another writer holds: they reject with
 * DatabaseBusyError (`../errors.ts`) at once, having written nothing, and the loop tries again.
 */
export interface WebhookDeliveryStore {
  /**
   * In one transaction: writes the event, gives it its place in its read feed (whether or not a
   * webhook subscribes, so the feed is complete) and one pending delivery per enabled webhook of
   * the workspace subscribed to its type. Resolves the event id.
   */
  enqueueEvent<E extends EventType>(event: OutboxEvent<E>): Promise<string>;
  /** Enabled webhooks with deliveries due and not leased: a read, never the write lock. */
  dueWebhookIds(now: string): Promise<string[]>;
  /**
   * Reserves due deliveries in one write transaction: up to `rooms.get(webhook)` of each listed
   * webhook that is still enabled, at most `limit` in all. Each gets a lease and its attempt counted.
   */
  claimDue(input: ClaimInput): Promise<ClaimedDelivery[]>;
  /** Logs one attempt and moves its delivery (and the webhook's failure counter) on, atomically. */
  recordAttempt(input: AttemptRecord): Promise<RecordedAttempt>;
  /** Gives up a lease early (shutdown), so the delivery is claimed again at once, under the same attempt number. */
  release(id: string, leaseToken: string, now: Date): Promise<void>;
  list(input: DeliveryListQuery): Promise<DeliveryRow[]>;
  get(workspaceId: string, webhookId: string, deliveryId: string): Promise<DeliveryRow | undefined>;
  getById(deliveryId: string): Promise<DeliveryRow | undefined>;
  /** Resolves false when there is no such delivery of that webhook in that workspace. */
  requeue(input: { workspace_id: string; webhook_id: string; id: string; now: string }): Promise<boolean>;
  recoverFailedSince(input: { workspace_id: string; webhook_id: string; since: string; now: string }): Promise<number>;
  attempts(deliveryId: string): Promise<AttemptRow[]>;
  countPending(): Promise<number>;
  /**
   * Calls `onEnqueued` soon after any process commits new deliveries, so a delivery loop need not
   * wait for its next poll; resolves the function that stops watching. On PostgreSQL, a LISTEN on
   * the channel every enqueuing transaction notifies (a rolled-back one notifies nobody); on
   * SQLite, a no-op: another process's writes are seen by the poll.
   */
  watchEnqueued(onEnqueued: () => void, onError: (err: Error) => void): Promise<() => Promise<void>>;
}
