// Webhook subscriptions as owners manage them: creation with a secret shown once, changes, the
// enabled switch, secret rotation with a grace period, and test deliveries. No HTTP here; refusals
// are ApiErrors naming the offending body field.
import { randomBytes, randomUUID } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import type { EventType } from '../../generated/events.js';
import { ServiceError } from '../errors/service-error.js';
import type { Store } from '../store/index.js';
import type { WebhookRow } from '../store/interfaces/webhooks.js';
import { assertSafeWebhookUrl, SsrfError, type Resolver } from './ssrf-guard.js';
import { sendTestDelivery } from './delivery/index.js';

export type Webhook = components['schemas']['Webhook'];
export type WebhookWithSecret = components['schemas']['WebhookWithSecret'];
export type WebhookTestResult = components['schemas']['WebhookTestResult'];

export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes: the HMAC-SHA256 key length, and what Standard Webhooks libraries expect. */
const SECRET_BYTES = 32;

/** Where webhook URLs may point, and how their host names are resolved for the check. */
export interface UrlPolicy {
  allowPrivate: boolean;
  resolve?: Resolver | undefined;
}

function createWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** Enough to recognise a secret, never enough to use it. */
function maskSecret(secret: string): string {
  return `${SECRET_PREFIX}…${secret.slice(-4)}`;
}

function parseEvents(stored: string): EventType[] {
  return JSON.parse(stored) as EventType[];
}

export function toWebhookView(row: WebhookRow, now: Date): Webhook {
  const rotating = row.previous_secret !== null && row.previous_secret_expires_at !== null
    && Date.parse(row.previous_secret_expires_at) > now.getTime();
  return {
    id: row.id,
    url: row.url,
    name: row.name,
    description: row.description,
    events: parseEvents(row.events),
    enabled: row.enabled === 1,
    secret_masked: maskSecret(row.secret),
    previous_secret_expires_at: rotating ? row.previous_secret_expires_at : null,
    consecutive_failures: row.consecutive_failures,
    disabled_at: row.disabled_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Refuses a URL a webhook must not target: plain http outside development, and any host that is
 * or resolves to a loopback, private, link-local or unique-local address. Delivery checks again at
 * connect time, so a name that changes its answers later is still caught.
 */
export async function checkWebhookUrl(url: string, policy: UrlPolicy): Promise<void> {
  try {
    const parsed = await assertSafeWebhookUrl(url, { allowPrivate: policy.allowPrivate, resolve: policy.resolve });
    if (parsed.protocol !== 'https:' && !policy.allowPrivate) throw new SsrfError('url: must use https');
  } catch (err) {
    if (err instanceof SsrfError) throw ServiceError.invalid({ in: 'body', name: 'url', message: err.message.replace(/^url:\s*/, '') });
    throw err;
  }
}

/** The subscribed events, without duplicates, in catalog order. */
function normaliseEvents(events: readonly EventType[], catalogOrder: readonly EventType[]): string {
  return JSON.stringify(catalogOrder.filter((e) => events.includes(e)));
}

async function existing(store: Store, workspaceId: string, webhookId: string): Promise<WebhookRow> {
  const row = await store.webhooks.get(workspaceId, webhookId);
  if (!row) throw ServiceError.notFound('Webhook');
  return row;
}

/** The webhook, or a 404 when the workspace has no such webhook. */
export async function getWebhook(store: Store, input: { workspaceId: string; webhookId: string; now: Date }): Promise<Webhook> {
  return toWebhookView(await existing(store, input.workspaceId, input.webhookId), input.now);
}

export async function createWebhook(
  store: Store,
  input: {
    workspaceId: string;
    userId: string;
    url: string;
    name: string;
    description: string | null;
    events: readonly EventType[];
    catalogOrder: readonly EventType[];
    policy: UrlPolicy;
    now: Date;
    /** How many webhooks the workspace may hold (MAX_WEBHOOKS): one more is a 409 LIMIT_REACHED. */
    max: number;
  },
): Promise<WebhookWithSecret> {
  // Not blank: the contract's `pattern: '\S'` refused a name of whitespace alone before this ran.
  const name = input.name.trim();
  await checkWebhookUrl(input.url, input.policy);
  const at = input.now.toISOString();
  const row: WebhookRow = {
    id: randomUUID(),
    workspace_id: input.workspaceId,
    url: input.url,
    name,
    description: input.description,
    events: normaliseEvents(input.events, input.catalogOrder),
    secret: createWebhookSecret(),
    previous_secret: null,
    previous_secret_expires_at: null,
    enabled: 1,
    consecutive_failures: 0,
    disabled_at: null,
    created_by: input.userId,
    created_at: at,
    updated_at: at,
  };
  // Counted in the insert's own transaction, so webhooks created at the same instant never pass the limit together.
  if (!(await store.webhooks.insertUnderCap(row, input.max))) {
    throw new ServiceError('LIMIT_REACHED', `The workspace already holds ${input.max} webhooks, as many as it may: delete one first.`);
  }
  return { webhook: toWebhookView(row, input.now), secret: row.secret };
}

export async function updateWebhook(
  store: Store,
  input: {
    workspaceId: string;
    webhookId: string;
    changes: { url?: string; name?: string; description?: string | null; events?: EventType[] };
    catalogOrder: readonly EventType[];
    policy: UrlPolicy;
    now: Date;
  },
): Promise<Webhook> {
  // At least one field, and no blank name: the contract's `minProperties: 1` and `pattern: '\S'`
  // refused the others before this ran.
  const { url, name, description, events } = input.changes;
  await existing(store, input.workspaceId, input.webhookId);
  if (url !== undefined) await checkWebhookUrl(url, input.policy);
  // The URL check waited on name resolution; the webhook may have been deleted meanwhile.
  const updated = await store.webhooks.update(input.workspaceId, input.webhookId, {
    url,
    name: name?.trim(),
    description,
    events: events === undefined ? undefined : normaliseEvents(events, input.catalogOrder),
  }, input.now.toISOString());
  if (!updated) throw ServiceError.notFound('Webhook');
  return getWebhook(store, input);
}

/** Deletes the webhook; its deliveries, sent or not, go with it. */
export async function deleteWebhook(store: Store, input: { workspaceId: string; webhookId: string }): Promise<{ id: string; deleted: true }> {
  if (!(await store.webhooks.delete(input.workspaceId, input.webhookId))) throw ServiceError.notFound('Webhook');
  return { id: input.webhookId, deleted: true };
}

export async function setWebhookEnabled(
  store: Store,
  input: { workspaceId: string; webhookId: string; enabled: boolean; now: Date },
): Promise<Webhook> {
  const at = input.now.toISOString();
  const changed = input.enabled
    ? await store.webhooks.enable(input.workspaceId, input.webhookId, at)
    : await store.webhooks.disable(input.workspaceId, input.webhookId, at);
  if (!changed) throw ServiceError.notFound('Webhook');
  return getWebhook(store, input);
}

/**
 * A new secret, shown once. During the grace period the previous secret signs too, so a receiver
 * can switch without losing a delivery; a rotation during a rotation retires the oldest secret.
 */
export async function rotateWebhookSecret(
  store: Store,
  input: { workspaceId: string; webhookId: string; gracePeriodSeconds: number; now: Date },
): Promise<WebhookWithSecret> {
  const secret = createWebhookSecret();
  const grace = input.gracePeriodSeconds > 0;
  // The secret it replaces is read by the write itself: two rotations at once leave the later one's
  // secret signing and the earlier one's as the previous, and neither answer hands out a dead secret.
  const rotated = await store.webhooks.rotate(input.workspaceId, input.webhookId, {
    secret,
    previousExpiresAt: grace ? new Date(input.now.getTime() + input.gracePeriodSeconds * 1000).toISOString() : null,
  }, input.now.toISOString());
  if (!rotated) throw ServiceError.notFound('Webhook');
  return { webhook: await getWebhook(store, input), secret };
}

/**
 * Sends a sample of `event` (by default the webhook's first subscribed event) now, enabled or not;
 * answers the status and the time, never the remote body.
 */
export async function testWebhook(
  store: Store,
  input: { workspaceId: string; webhookId: string; event: EventType | undefined; policy: UrlPolicy; timeoutMs: number; now: Date },
): Promise<WebhookTestResult> {
  const webhook = await existing(store, input.workspaceId, input.webhookId);
  // A webhook subscribes to at least one event (the contract's minItems), stored in catalog order.
  const event = input.event ?? parseEvents(webhook.events)[0]!;
  const result = await sendTestDelivery({
    webhook,
    eventType: event,
    now: input.now,
    allowPrivate: input.policy.allowPrivate,
    resolve: input.policy.resolve,
    timeoutMs: input.timeoutMs,
  });
  const success = result.http_status !== null && result.http_status >= 200 && result.http_status < 300;
  return { event, success, ...result, error: success ? null : (result.error ?? `HTTP ${result.http_status}`) };
}
