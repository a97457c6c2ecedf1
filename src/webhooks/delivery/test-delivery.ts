import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/openapi.js';
import type { Resolver } from '../ssrf-guard.js';
import { deliveryHeaders, signingSecrets, type WebhookSecrets } from '../signing.js';
import type { EventType } from '../../../generated/events.js';
import { eventEnvelope, serializeEnvelope } from '../../store/event-envelopes.js';
import { postWebhook } from './http-post.js';
import { SAMPLE_EVENT_DATA } from './samples.js';

/** What the attempt itself decides of the contract's `WebhookTestResult`. */
export type TestDeliveryResult = Pick<components['schemas']['WebhookTestResult'], 'http_status' | 'response_time_ms' | 'error'>;

/**
 * Sends a sample of one event (`is_test: true`, zeroed ids in `data`), signed exactly like a real
 * delivery, whether the webhook is enabled or not. Nothing is recorded and the remote body is never
 * returned (it could echo something the owner should not see through us). Each test gets a fresh
 * `webhook-id`, so receivers that drop duplicates still see every test.
 */
export async function sendTestDelivery(input: {
  webhook: WebhookSecrets & { url: string; workspace_id: string };
  eventType: EventType;
  now: Date;
  allowPrivate: boolean;
  /** The same deadline as a real delivery's attempt (`WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number;
  resolve?: Resolver;
}): Promise<TestDeliveryResult> {
  const deliveryId = randomUUID();
  const body = serializeEnvelope(eventEnvelope(
    input.eventType,
    { timestamp: input.now.toISOString(), workspace_id: input.webhook.workspace_id, is_test: true },
    SAMPLE_EVENT_DATA[input.eventType],
  ));
  const result = await postWebhook({
    url: input.webhook.url,
    body,
    headers: deliveryHeaders({
      deliveryId,
      eventType: input.eventType,
      body,
      secrets: signingSecrets(input.webhook, input.now),
      sentAt: input.now,
    }),
    timeoutMs: input.timeoutMs,
    allowPrivate: input.allowPrivate,
    resolve: input.resolve,
  });
  return { http_status: result.http_status, response_time_ms: result.response_time_ms, error: result.error };
}
