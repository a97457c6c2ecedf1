import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEvent } from '../../../generated/events.js';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

type Headers = Record<string, string | string[] | undefined> | globalThis.Headers;

function header(headers: Headers, name: string): string | undefined {
  if (headers instanceof globalThis.Headers) return headers.get(name) ?? undefined;
  const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value.join(' ') : value;
}

const equal = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Checks a delivery's signatures over the raw body exactly as received, and answers its event.
 * Both schemes the service signs with are checked when present, and at least one must be:
 * `X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the body, keyed with the secret string>`, and
 * Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`, keyed
 * with the base64 after `whsec_`; any of several space-separated signatures, as during a secret
 * rotation), whose timestamp must be within `toleranceSeconds` of now (default 300) so a captured
 * delivery cannot be replayed later. Throws `WebhookVerificationError` otherwise.
 */
export function verifyWebhook(
  body: string | Buffer,
  headers: Headers,
  secret: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): WebhookEvent {
  const raw = typeof body === 'string' ? body : body.toString('utf8');
  const simple = header(headers, 'x-webhook-signature');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (simple === undefined && signatures === undefined) throw new WebhookVerificationError('no signature: neither X-Webhook-Signature nor webhook-signature was sent');
  if (simple !== undefined && !equal(simple, `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`)) {
    throw new WebhookVerificationError('X-Webhook-Signature does not match the body and the secret');
  }
  if (signatures !== undefined) {
    if (id === undefined || timestamp === undefined || !/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-id or webhook-timestamp is missing or malformed');
    const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
    if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) throw new WebhookVerificationError('webhook-timestamp is outside the tolerance: a replay, or a clock far off');
    const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${raw}`).digest('base64');
    const given = signatures.split(' ').filter((s) => s.startsWith('v1,')).map((s) => s.slice(3));
    if (!given.some((s) => equal(s, expected))) throw new WebhookVerificationError('webhook-signature does not match the body, the headers and the secret');
  }
  try {
    return JSON.parse(raw) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
}
