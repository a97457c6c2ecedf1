import { describe, expect, it } from 'vitest';
import { consoleMember, csrfOf, formKeyOf, textOf } from '../../support/console-client.js';
import { answer } from '../../support/webhook-receiver.js';
import { emit, receiver, startDispatcher, until } from '../webhooks-admin/helpers.js';

const SECRET = /whsec_[A-Za-z0-9+/=]+/;

const ownerConsole = () => consoleMember({ server: { allowPrivateWebhookTargets: true } });

describe('console: webhooks', () => {
  it('creates a webhook (secret shown once), sends a test event to a loopback receiver, edits, rotates and disables it', async () => {
    const { browser, api, server, ws } = await ownerConsole();
    const r = await receiver(() => answer(204));
    const list = await browser.get('/console/webhooks');
    expect(textOf(list.html)).toContain('content.status_updated');
    const created = await browser.post('/console/webhooks', {
      csrf: csrfOf(list.html), idempotency_key: formKeyOf(list.html, '/console/webhooks'),
      url: r.url, name: 'CRM', description: '', events: ['content.status_updated', 'iq.status_updated'],
    });
    expect(created.status).toBe(201);
    const secret = SECRET.exec(created.html)?.[0];
    expect(secret).toBeDefined();
    const hooks = (await api({ path: '/webhooks' })).body as { data: { items: Array<{ id: string; name: string; events: string[] }> } };
    const hook = hooks.data.items[0]!;
    expect(hook).toMatchObject({ name: 'CRM', events: ['content.status_updated', 'iq.status_updated'] });

    const page = await browser.get(`/console/webhooks/${hook.id}`);
    expect(page.html).not.toContain(secret!);
    const tested = await browser.post(`/console/webhooks/${hook.id}/test`, {
      csrf: csrfOf(page.html), idempotency_key: formKeyOf(page.html, `/console/webhooks/${hook.id}/test`), event: 'iq.status_updated',
    });
    expect(textOf(tested.html)).toContain('Test event iq.status_updated delivered: the receiver answered 204');
    expect(r.requests).toHaveLength(1);
    expect(JSON.parse(r.requests[0]!.rawBody)).toMatchObject({ event: 'iq.status_updated', is_test: true });

    const edited = await browser.post(`/console/webhooks/${hook.id}`, { csrf: csrfOf(page.html), url: r.url, name: 'CRM v2', description: 'Sales', events: ['iq.status_updated'] });
    expect(edited.status).toBe(303);
    const rotated = await browser.post(`/console/webhooks/${hook.id}/rotate-secret`, {
      csrf: csrfOf(page.html), idempotency_key: formKeyOf(page.html, `/console/webhooks/${hook.id}/rotate-secret`), grace_period_seconds: '3600',
    });
    const newSecret = SECRET.exec(rotated.html)?.[0];
    expect(newSecret).toBeDefined();
    expect(newSecret).not.toBe(secret);
    expect(textOf(rotated.html)).toContain('The previous secret keeps verifying until');
    const disabled = await browser.post(`/console/webhooks/${hook.id}/disable`, {
      csrf: csrfOf(page.html), idempotency_key: formKeyOf(page.html, `/console/webhooks/${hook.id}/disable`),
    });
    expect(disabled.status).toBe(303);
    const after = (await api({ path: `/webhooks/${hook.id}` })).body as { data: { name: string; description: string; enabled: boolean; previous_secret_expires_at: string | null } };
    expect(after.data).toMatchObject({ name: 'CRM v2', description: 'Sales', enabled: false });
    expect(after.data.previous_secret_expires_at).not.toBeNull();
    expect(ws.workspaceId).toBeTruthy();
    expect(server.url).toBeTruthy();
  });

  it('shows the delivery log with status filters, each attempt\'s request and response, and redelivers', async () => {
    const { browser, api, server, ws } = await ownerConsole();
    let up = false;
    const r = await receiver(() => (up ? answer(200, 'thanks') : answer(503, 'down for maintenance')));
    const hook = ((await api({ method: 'POST', path: '/webhooks', body: { url: r.url, name: 'Flaky', events: ['content.status_updated'] } })).body as { data: { webhook: { id: string } } }).data.webhook;
    const dispatcher = startDispatcher(server, { retryScheduleMs: [] });
    await emit(server, ws.workspaceId);
    await until(() => r.requests.length === 1, 5_000, 'the failing attempt');
    await dispatcher.drain();

    const failedOnly = await browser.get(`/console/webhooks/${hook.id}?status=failed`);
    expect(textOf(failedOnly.html)).toContain('Deliveries, newest first (failed)');
    const deliveryId = /\/deliveries\/([0-9a-f-]{36})"/.exec(failedOnly.html)?.[1];
    expect(deliveryId).toBeDefined();
    const deliveredOnly = await browser.get(`/console/webhooks/${hook.id}?status=delivered`);
    expect(textOf(deliveredOnly.html)).toContain('No deliveries delivered.');

    const detail = await browser.get(`/console/webhooks/${hook.id}/deliveries/${deliveryId!}`);
    expect(textOf(detail.html)).toContain('Attempt 1: failure');
    expect(textOf(detail.html)).toContain('HTTP 503');
    expect(textOf(detail.html)).toContain('down for maintenance');
    expect(textOf(detail.html)).toContain('"event": "content.status_updated"');

    up = true;
    const action = `/console/webhooks/${hook.id}/deliveries/${deliveryId!}/redeliver`;
    const redelivered = await browser.post(action, { csrf: csrfOf(detail.html), idempotency_key: formKeyOf(detail.html, action) });
    expect(redelivered.status).toBe(303);
    await until(() => r.requests.length === 2, 5_000, 'the redelivery');
    await dispatcher.drain();
    const after = await browser.get(`/console/webhooks/${hook.id}/deliveries/${deliveryId!}`);
    // A redelivery's attempts count from 1 again; both attempts stay on the page, oldest first.
    expect(textOf(after.html)).toMatch(/State recovered .*Attempt 1: failure .*down for maintenance .*Attempt 1: success .*HTTP 200 .*thanks/);
  });

  it('shows the API\'s refusal of a private address when private targets are not allowed', async () => {
    const { browser } = await consoleMember();
    const list = await browser.get('/console/webhooks');
    const refused = await browser.post('/console/webhooks', {
      csrf: csrfOf(list.html), idempotency_key: formKeyOf(list.html, '/console/webhooks'),
      url: 'http://127.0.0.1:9/hook', name: 'Local', events: ['content.status_updated'],
    });
    expect(refused.status).toBe(422);
    expect(textOf(refused.html)).toContain('Invalid parameters: body.url');
    // The form keeps what was typed.
    expect(refused.html).toContain('value="http://127.0.0.1:9/hook"');
  });
});
