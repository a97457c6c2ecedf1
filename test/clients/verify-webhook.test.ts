import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWebhook, newWebhookSecret } from '../support/webhooks.js';
import { clientProject, importWebhooks, type ClientProject } from '../support/packed-client.js';
import { emit, receiver, startDeliveryWorld } from '../integration/webhooks-delivery/helpers.js';
import type { ReceivedRequest } from '../support/webhook-receiver.js';

// `@workspace-read-api/client/webhooks`, packed and installed, on real deliveries of the service.
let project: ClientProject;
let W: Awaited<ReturnType<typeof importWebhooks>>;

beforeAll(async () => {
  project = await clientProject();
  W = await importWebhooks(project);
}, 180_000);
afterAll(() => project?.cleanup());

/** One real delivery of a webhook holding `secret` (and `previousSecret` in its grace period). */
async function deliveryWith(secret: string, previousSecret?: string): Promise<ReceivedRequest> {
  const { store, workspace } = await startDeliveryWorld();
  const hooks = await receiver();
  await createTestWebhook(store, workspace, {
    url: hooks.url, secret, ...(previousSecret ? { previousSecret, previousSecretExpiresAt: new Date(Date.now() + 3_600_000) } : {}),
  });
  await emit(store, workspace.workspaceId, 'topic.status_updated', { name: 'AI search visibility', stage: 'READY' });
  const [delivery] = await hooks.waitForRequests(1, 10_000);
  return delivery!;
}

const refusal = (promise: Promise<unknown>) => promise.then(() => 'verified', (e: unknown) => `${(e as Error).name}: ${(e as Error).message}`);

describe('verifyWebhook (@workspace-read-api/client/webhooks)', () => {
  it('verifies a real delivery by its Standard Webhooks headers and answers the typed event; refuses a tampered body, a wrong secret and an old timestamp', async () => {
    const secret = newWebhookSecret();
    const delivery = await deliveryWith(secret);
    const event = await W.verifyWebhook(delivery.rawBody, delivery.headers, secret);
    expect(event).toMatchObject({ event: 'topic.status_updated', data: { name: 'AI search visibility', stage: 'READY' } });
    // The raw body as bytes, and the headers as a fetch Headers, verify the same.
    const headers = new Headers(Object.entries(delivery.headers).map(([k, v]) => [k, String(v)] as [string, string]));
    expect(await W.verifyWebhook(Buffer.from(delivery.rawBody), headers, secret)).toEqual(event);

    expect(await refusal(W.verifyWebhook(delivery.rawBody.replace('READY', 'PROCESSING'), delivery.headers, secret))).toMatch(/^WebhookVerificationError: webhook-signature does not match/);
    expect(await refusal(W.verifyWebhook(delivery.rawBody, delivery.headers, newWebhookSecret()))).toMatch(/^WebhookVerificationError: webhook-signature does not match/);
    const later = new Date(Number(delivery.headers['webhook-timestamp']) * 1000 + 301_000);
    expect(await refusal(W.verifyWebhook(delivery.rawBody, delivery.headers, secret, { now: later }))).toMatch(/outside the tolerance/);
  });

  it('refuses X-Webhook-Signature alone (a replay a day later verified before) unless the caller opts in by name', async () => {
    const secret = newWebhookSecret();
    const delivery = await deliveryWith(secret);
    const { 'webhook-id': _id, 'webhook-timestamp': _ts, 'webhook-signature': _sig, ...legacyOnly } = delivery.headers;
    const aDayLater = new Date(Date.now() + 86_400_000);
    expect(await refusal(W.verifyWebhook(delivery.rawBody, legacyOnly, secret, { now: aDayLater })))
      .toBe('WebhookVerificationError: webhook-id, webhook-timestamp and webhook-signature are required (X-Webhook-Signature alone proves no time: see allowLegacySignatureWithoutTimestamp)');
    // Opted in, the body's signature alone verifies, at any time: that is what the option gives up.
    expect(await W.verifyWebhook(delivery.rawBody, legacyOnly, secret, { allowLegacySignatureWithoutTimestamp: true, now: aDayLater })).toMatchObject({ event: 'topic.status_updated' });
    expect(await refusal(W.verifyWebhook(delivery.rawBody.replace('READY', 'COMPLETED'), legacyOnly, secret, { allowLegacySignatureWithoutTimestamp: true })))
      .toBe('WebhookVerificationError: X-Webhook-Signature does not match the body and the secret');
  });

  it("during a rotation's grace, a receiver holding either secret verifies; a list of secrets verifies by any of them", async () => {
    const previous = newWebhookSecret();
    const current = newWebhookSecret();
    const delivery = await deliveryWith(current, previous);
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(await refusal(W.verifyWebhook(delivery.rawBody, delivery.headers, previous))).toBe('verified');
    expect(await refusal(W.verifyWebhook(delivery.rawBody, delivery.headers, current))).toBe('verified');
    expect(await refusal(W.verifyWebhook(delivery.rawBody, delivery.headers, [newWebhookSecret(), previous]))).toBe('verified');
    expect(await refusal(W.verifyWebhook(delivery.rawBody, delivery.headers, [newWebhookSecret()]))).toMatch(/^WebhookVerificationError/);
  });

  it('answers every malformed input with a WebhookVerificationError, never another error', async () => {
    const secret = newWebhookSecret();
    const delivery = await deliveryWith(secret);
    const { headers, rawBody } = delivery;
    const signature = String(headers['webhook-signature']);
    const legacy = String(headers['x-webhook-signature']);
    const { 'webhook-id': _id, 'webhook-timestamp': _ts, 'webhook-signature': _sig, ...legacyOnly } = headers;
    const cases: Array<[string, Promise<unknown>]> = [
      // Same length as the real signature, one character outside ASCII.
      ['a non-ASCII signature', W.verifyWebhook(rawBody, { ...headers, 'webhook-signature': `${signature.slice(0, -2)}é=` }, secret)],
      ['a non-ASCII legacy signature', W.verifyWebhook(rawBody, { ...legacyOnly, 'x-webhook-signature': `${legacy.slice(0, -1)}é` }, secret, { allowLegacySignatureWithoutTimestamp: true })],
      ['a signature that is not base64', W.verifyWebhook(rawBody, { ...headers, 'webhook-signature': 'v1,***' }, secret)],
      ['no v1 signature', W.verifyWebhook(rawBody, { ...headers, 'webhook-signature': 'v2,abc' }, secret)],
      ['a timestamp that is not a number', W.verifyWebhook(rawBody, { ...headers, 'webhook-timestamp': '1e9' }, secret)],
      ['a secret that is not base64', W.verifyWebhook(rawBody, headers, 'whsec_!!!')],
      ['no secret', W.verifyWebhook(rawBody, headers, [])],
      ['a body that is not JSON, signed', W.verifyWebhook('not json', { ...legacyOnly, 'x-webhook-signature': 'sha256=00' }, secret, { allowLegacySignatureWithoutTimestamp: true })],
      ['a body of another type', W.verifyWebhook(42 as unknown as string, headers, secret)],
    ];
    for (const [name, verification] of cases) expect(await refusal(verification), name).toMatch(/^WebhookVerificationError: /);
  });
});
