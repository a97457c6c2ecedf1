import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { USER_AGENT, bodySignature, deliveryHeaders, signingSecrets } from '../../../src/webhooks/signing.js';
import { newWebhookSecret } from '../../support/webhooks.js';

const body = JSON.stringify({ event: 'content.status_updated', timestamp: '2026-01-15T09:30:00.000Z', workspace_id: 'w', is_test: false, data: { id: 'x' } });

function sign(secrets: string[], sentAt = new Date(), payload = body) {
  return deliveryHeaders({ deliveryId: 'c2d1a5a8-9d8e-4a53-8a4c-3f1f3a7f0b11', eventType: 'content.status_updated', body: payload, secrets, sentAt });
}

/** What a receiver does with X-Webhook-Signature: recompute over the raw body, compare in constant time. */
function bodySignatureMatches(secret: string, rawBody: string, header: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`);
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

describe('delivery signatures', () => {
  it('when a delivery is signed, carries every header and verifies with standardwebhooks and by recomputing X-Webhook-Signature', () => {
    const secret = newWebhookSecret();
    const headers = sign([secret]);
    expect(headers).toEqual({
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': 'c2d1a5a8-9d8e-4a53-8a4c-3f1f3a7f0b11',
      'webhook-timestamp': expect.stringMatching(/^\d{10}$/),
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
      'x-webhook-signature': expect.stringMatching(/^sha256=[0-9a-f]{64}$/),
      'x-webhook-event': 'content.status_updated',
      'x-webhook-delivery': 'c2d1a5a8-9d8e-4a53-8a4c-3f1f3a7f0b11',
    });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(bodySignatureMatches(secret, body, headers['x-webhook-signature']!)).toBe(true);
    expect(headers['x-webhook-signature']).toBe(bodySignature(secret, body));
  });

  it('when the body is tampered with, fails both checks', () => {
    const secret = newWebhookSecret();
    const headers = sign([secret]);
    const tampered = body.replace('"is_test":false', '"is_test":true');
    expect(() => new Webhook(secret).verify(tampered, headers)).toThrow(/No matching signature/);
    expect(bodySignatureMatches(secret, tampered, headers['x-webhook-signature']!)).toBe(false);
  });

  it('when the receiver holds another secret, fails both checks', () => {
    const headers = sign([newWebhookSecret()]);
    const wrong = newWebhookSecret();
    expect(() => new Webhook(wrong).verify(body, headers)).toThrow(/No matching signature/);
    expect(bodySignatureMatches(wrong, body, headers['x-webhook-signature']!)).toBe(false);
  });

  it('when the timestamp is older than the tolerance, standardwebhooks refuses it (replay)', () => {
    const secret = newWebhookSecret();
    const headers = sign([secret], new Date(Date.now() - 10 * 60_000));
    expect(() => new Webhook(secret).verify(body, headers)).toThrow(/too old/);
  });

  it('when the timestamp was altered, the signature no longer matches', () => {
    const secret = newWebhookSecret();
    const headers = sign([secret]);
    const altered = { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 1) };
    expect(() => new Webhook(secret).verify(body, altered)).toThrow(/No matching signature/);
  });

  it('when a rotation is in its grace period, both secrets verify the Standard Webhooks signature and X-Webhook-Signature uses the new one', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const now = new Date();
    const secrets = signingSecrets(
      { secret: current, previous_secret: previous, previous_secret_expires_at: new Date(now.getTime() + 3_600_000).toISOString() },
      now,
    );
    expect(secrets).toEqual([current, previous]);
    const headers = sign(secrets, now);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(bodySignatureMatches(current, body, headers['x-webhook-signature']!)).toBe(true);
    expect(bodySignatureMatches(previous, body, headers['x-webhook-signature']!)).toBe(false);
  });

  it('when the grace period is over, the previous secret no longer signs', () => {
    const current = newWebhookSecret();
    const previous = newWebhookSecret();
    const now = new Date();
    const secrets = signingSecrets(
      { secret: current, previous_secret: previous, previous_secret_expires_at: new Date(now.getTime() - 1).toISOString() },
      now,
    );
    expect(secrets).toEqual([current]);
    const headers = sign(secrets, now);
    expect(() => new Webhook(previous).verify(body, headers)).toThrow(/No matching signature/);
  });

  it('when no secret is given, refuses to sign', () => {
    expect(() => sign([])).toThrow(/at least one signing secret/);
  });
});
