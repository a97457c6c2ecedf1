/*
 * Delivery signatures. One secret (`whsec_` + base64, shown once) signs every delivery two ways, so
 * receivers can use whichever their stack supports:
 *  - `X-Webhook-Signature: sha256=<hex>`: HMAC-SHA256 of the raw body, keyed with the secret string
 *    exactly as shown (prefix included), like GitHub's X-Hub-Signature-256.
 *  - Standard Webhooks (standardwebhooks.com, verifiable with the official `standardwebhooks`
 *    libraries): `webhook-id`, `webhook-timestamp` (Unix seconds) and
 *    `webhook-signature: v1,<base64 HMAC-SHA256 of "${id}.${timestamp}.${body}">`, keyed with the
 *    base64-decoded part after `whsec_`. The timestamp lets receivers refuse replays.
 *
 * Rotation: while the previous secret is in its grace period, `webhook-signature` carries one `v1,`
 * signature per secret, space-separated, current first, so a receiver holding either secret verifies
 * (the Standard Webhooks libraries accept any matching entry). `X-Webhook-Signature` has room for one
 * value and always uses the current secret: receivers that check it switch secrets at rotation time.
 */
import { createHmac } from 'node:crypto';

export const USER_AGENT = 'WorkspaceReadAPI-Webhooks/1.0';

/** The secrets of one webhook, as stored. */
export interface WebhookSecrets {
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
}

/** The secrets that sign at `now`: the current one, then the previous one while its grace period lasts. */
export function signingSecrets(webhook: WebhookSecrets, now: Date): string[] {
  const previousValid =
    webhook.previous_secret !== null &&
    webhook.previous_secret_expires_at !== null &&
    Date.parse(webhook.previous_secret_expires_at) > now.getTime();
  return previousValid ? [webhook.secret, webhook.previous_secret as string] : [webhook.secret];
}

/** The HMAC key Standard Webhooks derives from a secret: the base64 after the `whsec_` prefix. */
function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/** `sha256=<hex>` over the raw body, keyed with the secret string. */
export function bodySignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** One Standard Webhooks `v1,<base64>` entry. */
function standardSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** Every header of one attempt. The timestamp is the send time, so each retry is signed afresh. */
export function deliveryHeaders(input: {
  deliveryId: string;
  eventType: string;
  body: string;
  secrets: readonly string[];
  sentAt: Date;
}): Record<string, string> {
  const [current] = input.secrets;
  if (current === undefined) throw new Error('a delivery needs at least one signing secret');
  const timestamp = Math.floor(input.sentAt.getTime() / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': input.deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': input.secrets.map((s) => standardSignature(s, input.deliveryId, timestamp, input.body)).join(' '),
    'x-webhook-signature': bodySignature(current, input.body),
    'x-webhook-event': input.eventType,
    'x-webhook-delivery': input.deliveryId,
  };
}
