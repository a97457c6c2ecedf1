// Webhook verification with Web Crypto (`globalThis.crypto.subtle`), so it runs in Node 22+,
// browsers, Deno, Bun and edge runtimes alike. `crypto.subtle.verify` compares the MACs in
// constant time. Exported as `@workspace-read-api/client/webhooks`.
import type { WebhookEvent } from './contract-types.js';

export type { WebhookEvent } from './contract-types.js';

/** A delivery that is not proven to come from the service now: forged, tampered, replayed or malformed. */
export class WebhookVerificationError extends Error {
  override readonly name: string = 'WebhookVerificationError';
}

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, in seconds; default 300. */
  toleranceSeconds?: number;
  /** The time to check against; default the clock. */
  now?: Date;
  /**
   * Accept a delivery that carries only `X-Webhook-Signature` (no `webhook-id`, `webhook-timestamp`,
   * `webhook-signature`). That signature covers the body alone, with no time: whoever captured one
   * delivery can send it again, days later, and it verifies. Off by default.
   */
  allowLegacySignatureWithoutTimestamp?: boolean;
}

type HeaderBag = Headers | Record<string, string | string[] | undefined>;
type Key = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

const fail = (message: string): never => {
  throw new WebhookVerificationError(message);
};

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const value = Object.entries(headers as Record<string, string | string[] | undefined>).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value.join(' ') : value;
}

const utf8 = (text: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(text);

function base64(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return null;
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

function hex(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(text)) return null;
  return Uint8Array.from(text.match(/../g)!, (pair) => parseInt(pair, 16));
}

function bodyBytes(body: unknown): Uint8Array<ArrayBuffer> {
  if (typeof body === 'string') return utf8(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof Uint8Array) return new Uint8Array(body);
  return fail('the body must be the raw request body: a string, a Uint8Array (a Buffer) or an ArrayBuffer');
}

const hmacKey = (raw: Uint8Array<ArrayBuffer>): Promise<Key> =>
  globalThis.crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);

async function anyVerifies(keys: Array<Uint8Array<ArrayBuffer>>, signatures: Array<Uint8Array<ArrayBuffer>>, signed: Uint8Array<ArrayBuffer>): Promise<boolean> {
  for (const raw of keys) {
    const key = await hmacKey(raw);
    for (const signature of signatures) if (await globalThis.crypto.subtle.verify('HMAC', key, signature, signed)) return true;
  }
  return false;
}

/**
 * Checks a delivery's signature over its raw body, exactly as received, and answers its event.
 *
 * By default the Standard Webhooks headers are required: `webhook-id`, `webhook-timestamp` (within
 * `toleranceSeconds` of now, so a captured delivery cannot be replayed later) and
 * `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the base64
 * after `whsec_`; several space-separated signatures may come, as during a secret rotation).
 * `secret` may be several secrets (during a rotation's grace, the new and the old): any one
 * verifies. `X-Webhook-Signature` alone counts only with `allowLegacySignatureWithoutTimestamp`.
 * Anything else throws `WebhookVerificationError`.
 */
export async function verifyWebhook(
  body: string | Uint8Array | ArrayBuffer,
  headers: HeaderBag,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const bytes = bodyBytes(body);
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0 || !secrets.every((s) => typeof s === 'string' && s !== '')) fail('no secret to verify with');
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  const legacy = header(headers, 'x-webhook-signature');

  if (id === undefined && timestamp === undefined && signature === undefined && legacy !== undefined && options.allowLegacySignatureWithoutTimestamp === true) {
    // sha256=<hex HMAC-SHA256 of the body, keyed with the secret string>: no time, no replay protection.
    const given = hex(legacy.startsWith('sha256=') ? legacy.slice(7) : '');
    if (given === null || given.length !== 32) fail('X-Webhook-Signature is not sha256=<64 hex digits>');
    if (!await anyVerifies(secrets.map(utf8), [given!], bytes)) fail('X-Webhook-Signature does not match the body and the secret');
  } else {
    if (id === undefined || timestamp === undefined || signature === undefined) {
      fail(`webhook-id, webhook-timestamp and webhook-signature are required${legacy === undefined ? '' : ' (X-Webhook-Signature alone proves no time: see allowLegacySignatureWithoutTimestamp)'}`);
    }
    if (!/^\d{1,12}$/.test(timestamp!)) fail('webhook-timestamp is not a number of seconds');
    const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
    if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300)) fail('webhook-timestamp is outside the tolerance: a replay, or a clock far off');
    const keys = secrets.map((s) => base64(s.startsWith('whsec_') ? s.slice(6) : s) ?? fail('a secret is not whsec_ followed by base64'));
    const given = signature!.split(' ').filter((s) => s.startsWith('v1,')).flatMap((s) => base64(s.slice(3)) ?? []);
    if (given.length === 0) fail('webhook-signature holds no v1 signature');
    const signed = new Uint8Array([...utf8(`${id}.${timestamp}.`), ...bytes]);
    if (!await anyVerifies(keys, given, signed)) fail('webhook-signature does not match the body, the headers and the secret');
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as WebhookEvent;
  } catch {
    return fail('the body is not JSON');
  }
}
