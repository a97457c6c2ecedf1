import { createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, createWebhook, receiver, WEBHOOK_NOT_FOUND } from './helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

type Rotated = { data: { secret: string; webhook: { secret_masked: string; previous_secret_expires_at: string | null; updated_at: string } } };

describe('POST /api/workspace/{workspace_id}/webhooks/{webhook_id}/rotate-secret', () => {
  it('when rotated without a body, answers the new secret once and keeps the old one signing for 24 hours', async () => {
    const { call } = await adminWorld(server);
    const { id, secret: old } = await createWebhook(call, { url: 'http://127.0.0.1:9/hooks' });
    const response = await call({ method: 'POST', path: `/webhooks/${id}/rotate-secret` });
    expect(response.status).toBe(200);
    const { data } = response.body as Rotated;
    expect(response.body).toEqual({
      code: 2000,
      messages: 'Rotated. Store the new secret now: it is not shown again.',
      data: {
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        webhook: expect.objectContaining({ id, secret_masked: `whsec_…${data.secret.slice(-4)}` }),
      },
    });
    expect(data.secret).not.toBe(old);
    expect(Date.parse(data.webhook.previous_secret_expires_at!) - Date.parse(data.webhook.updated_at)).toBe(24 * 3600 * 1000);
    expect((await call({ path: `/webhooks/${id}` })).text).not.toContain(data.secret.slice(6, 30));
  });

  it('when a grace period is given, uses it; 0 retires the old secret at once', async () => {
    const { call } = await adminWorld(server);
    const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/hooks' });
    const hour = (await call({ method: 'POST', path: `/webhooks/${id}/rotate-secret`, body: { grace_period_seconds: 3600 } })).body as Rotated;
    expect(Date.parse(hour.data.webhook.previous_secret_expires_at!) - Date.parse(hour.data.webhook.updated_at)).toBe(3600 * 1000);
    const none = (await call({ method: 'POST', path: `/webhooks/${id}/rotate-secret`, body: { grace_period_seconds: 0 } })).body as Rotated;
    expect(none.data.webhook.previous_secret_expires_at).toBeNull();
  });

  it('during the grace period, deliveries verify with both secrets; X-Webhook-Signature uses the new one', async () => {
    const { call } = await adminWorld(server);
    const r = await receiver();
    const { id, secret: old } = await createWebhook(call, { url: r.url });
    const { data } = (await call({ method: 'POST', path: `/webhooks/${id}/rotate-secret` })).body as Rotated;
    const test = await call({ method: 'POST', path: `/webhooks/${id}/test`, body: { event: 'content.status_updated' } });
    expect(test.status).toBe(200);
    const [request] = await r.waitForRequests(1);
    const headers = request!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of [old, data.secret]) expect(new Webhook(secret).verify(request!.rawBody, headers)).toMatchObject({ is_test: true });
    expect(headers['x-webhook-signature']).toBe(`sha256=${createHmac('sha256', data.secret).update(request!.rawBody).digest('hex')}`);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(request!.rawBody, headers)).toThrow();
  });

  it('when the grace period is out of range or the body has unknown fields, answers 422 naming them', async () => {
    const { call } = await adminWorld(server);
    const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/hooks' });
    const tooLong = await call({ method: 'POST', path: `/webhooks/${id}/rotate-secret`, body: { grace_period_seconds: 604801 } });
    expect(tooLong.body).toEqual({
      code: 4220,
      messages: 'Invalid parameters: body.grace_period_seconds must be <= 604800.',
      data: { errors: [{ in: 'body', name: 'grace_period_seconds', message: 'must be <= 604800' }] },
    });
    const unknown = await call({ method: 'POST', path: `/webhooks/${id}/rotate-secret`, body: { secret: 'whsec_mine' } });
    expect(unknown.body).toEqual({
      code: 4220,
      messages: 'Invalid parameters: body.secret is not a known field.',
      data: { errors: [{ in: 'body', name: 'secret', message: 'is not a known field' }] },
    });
  });

  it('when the webhook is unknown, answers 404', async () => {
    const { call } = await adminWorld(server);
    const response = await call({ method: 'POST', path: `/webhooks/${randomUUID()}/rotate-secret` });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(WEBHOOK_NOT_FOUND);
  });
});
