import { describe, expect, it } from 'vitest';
import { SAMPLE_EVENT_DATA, ZERO_UUID, sendTestDelivery } from '../../../src/webhooks/delivery/index.js';
import { answer } from '../../support/webhook-receiver.js';
import { ALL_EVENT_TYPES, newWebhookSecret } from '../../support/webhooks.js';
import { createWebhookContract } from '../../support/webhook-contract.js';
import { receiver, verifyDelivery } from './helpers.js';

const contract = createWebhookContract();
/** Long enough for a loopback receiver that answers; the hanging case sets its own. */
const timeoutMs = 5_000;

function webhookAt(url: string, extra: { previous_secret?: string; previous_secret_expires_at?: string } = {}) {
  return {
    url,
    workspace_id: crypto.randomUUID(),
    secret: newWebhookSecret(),
    previous_secret: extra.previous_secret ?? null,
    previous_secret_expires_at: extra.previous_secret_expires_at ?? null,
  };
}

/** Every UUID-shaped string anywhere in a value. */
function uuidsIn(value: unknown): string[] {
  return JSON.stringify(value).match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi) ?? [];
}

describe('webhook test delivery', () => {
  it.each(ALL_EVENT_TYPES)('when testing %s, sends a signed sample with is_test true and zeroed ids, and answers only the status and time', async (eventType) => {
    const r = await receiver(() => answer(201, 'secret internal details'));
    const webhook = webhookAt(r.url);
    const now = new Date();
    const result = await sendTestDelivery({ webhook, eventType, now, allowPrivate: true, timeoutMs });
    expect(result).toEqual({ http_status: 201, response_time_ms: expect.any(Number), error: null });

    const [request] = await r.waitForRequests(1);
    expect(verifyDelivery(webhook.secret, request!)).toEqual({
      event: eventType,
      timestamp: now.toISOString(),
      workspace_id: webhook.workspace_id,
      is_test: true,
      data: SAMPLE_EVENT_DATA[eventType],
    });
    expect(request!.headers['x-webhook-event']).toBe(eventType);
    expect(contract.body(eventType, JSON.parse(request!.rawBody))).toEqual([]);
    expect(contract.headers(eventType, request!.headers)).toEqual([]);
    expect(new Set(uuidsIn(SAMPLE_EVENT_DATA[eventType]))).toEqual(new Set([ZERO_UUID]));
  });

  it('when tested twice, each test carries its own webhook-id so receivers that drop duplicates see both', async () => {
    const r = await receiver();
    const webhook = webhookAt(r.url);
    await sendTestDelivery({ webhook, eventType: 'topic.status_updated', now: new Date(), allowPrivate: true, timeoutMs });
    await sendTestDelivery({ webhook, eventType: 'topic.status_updated', now: new Date(), allowPrivate: true, timeoutMs });
    const [a, b] = await r.waitForRequests(2);
    expect(a!.headers['webhook-id']).not.toBe(b!.headers['webhook-id']);
    expect(a!.headers['webhook-id']).toBe(a!.headers['x-webhook-delivery']);
  });

  it('when the receiver fails, hangs or redirects, answers what happened without the remote body', async () => {
    const r = await receiver((q) => (q.path.endsWith('hang') ? 'hang' : q.path.endsWith('redirect') ? { status: 301, headers: { location: '/' } } : answer(500, 'stack trace')));
    const now = new Date();
    const base = r.url;
    expect(await sendTestDelivery({ webhook: webhookAt(base), eventType: 'iq.status_updated', now, allowPrivate: true, timeoutMs })).toEqual({
      http_status: 500,
      response_time_ms: expect.any(Number),
      error: 'answered 500',
    });
    expect(await sendTestDelivery({ webhook: webhookAt(`${base}/redirect`), eventType: 'iq.status_updated', now, allowPrivate: true, timeoutMs })).toEqual({
      http_status: 301,
      response_time_ms: expect.any(Number),
      error: 'answered 301: redirects are not followed',
    });
    expect(await sendTestDelivery({ webhook: webhookAt(`${base}/hang`), eventType: 'iq.status_updated', now, allowPrivate: true, timeoutMs: 200 })).toEqual({
      http_status: null,
      response_time_ms: expect.any(Number),
      error: 'timed out after 200 ms',
    });
  });

  it('when the URL points at a private address and the switch is off, refuses without connecting', async () => {
    const r = await receiver();
    const result = await sendTestDelivery({ webhook: webhookAt(r.url), eventType: 'content.status_updated', now: new Date(), allowPrivate: false, timeoutMs });
    expect(result).toEqual({ http_status: null, response_time_ms: expect.any(Number), error: expect.stringMatching(/^refused before connecting: .*loopback/) });
    expect(r.connections()).toBe(0);
  });

  it('when the secret is being rotated, the test verifies with both secrets', async () => {
    const r = await receiver();
    const previous = newWebhookSecret();
    const webhook = webhookAt(r.url, { previous_secret: previous, previous_secret_expires_at: new Date(Date.now() + 60_000).toISOString() });
    await sendTestDelivery({ webhook, eventType: 'sitemap_url.status_updated', now: new Date(), allowPrivate: true, timeoutMs });
    const [request] = await r.waitForRequests(1);
    verifyDelivery(webhook.secret, request!);
    const { Webhook } = await import('standardwebhooks');
    expect(new Webhook(previous).verify(request!.rawBody, request!.headers as Record<string, string>)).toMatchObject({ is_test: true });
  });
});
