import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/test-server.js';
import { answer } from '../../support/webhook-receiver.js';
import { adminWorld, createWebhook, emit, receiver, startDispatcher, until, WEBHOOK_NOT_FOUND } from './helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

type Page = { data: { items: Array<{ id: string; delivery_status: string }> } };

describe('POST /api/workspace/{workspace_id}/webhooks/{webhook_id}/deliveries/recover', () => {
  it('when deliveries failed during an outage, queues every one since the time (202) and they arrive', async () => {
    const { workspace, call } = await adminWorld(server);
    let up = false;
    const r = await receiver(() => (up ? answer(204) : answer(502)));
    const { id } = await createWebhook(call, { url: r.url });
    const dispatcher = startDispatcher(server, { retryScheduleMs: [] });
    const since = new Date().toISOString();
    for (let i = 0; i < 3; i += 1) await emit(server, workspace.workspaceId);
    await until(() => r.requests.length === 3, 5_000, 'three failing attempts');
    await dispatcher.drain();

    up = true;
    const response = await call({ method: 'POST', path: `/webhooks/${id}/deliveries/recover`, body: { since } });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ code: 2020, messages: '3 failed deliveries queued again.', data: { recovered: 3 } });
    await until(() => r.requests.length === 6, 5_000, 'the recovered deliveries');
    await dispatcher.drain();
    const statuses = ((await call({ path: `/webhooks/${id}/deliveries` })).body as Page).data.items.map((d) => d.delivery_status);
    expect(statuses).toEqual(['recovered', 'recovered', 'recovered']);
  });

  it('when nothing failed since the time, answers 0', async () => {
    const { call } = await adminWorld(server);
    const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/never' });
    const response = await call({ method: 'POST', path: `/webhooks/${id}/deliveries/recover`, body: { since: new Date().toISOString() } });
    expect(response.body).toEqual({ code: 2020, messages: '0 failed deliveries queued again.', data: { recovered: 0 } });
  });

  it('when since is missing or not a date-time, answers 422 naming since', async () => {
    const { call } = await adminWorld(server);
    const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/never' });
    const missing = await call({ method: 'POST', path: `/webhooks/${id}/deliveries/recover`, body: {} });
    expect(missing.body).toEqual({
      code: 4220,
      messages: 'Invalid parameters: body.since is required.',
      data: { errors: [{ in: 'body', name: 'since', message: 'is required' }] },
    });
    const bad = await call({ method: 'POST', path: `/webhooks/${id}/deliveries/recover`, body: { since: '2026-02-30T00:00:00Z' } });
    expect(bad.body).toEqual({
      code: 4220,
      messages: 'Invalid parameters: body.since must match format "date-time".',
      data: { errors: [{ in: 'body', name: 'since', message: 'must match format "date-time"' }] },
    });
  });

  it('when the webhook is unknown, answers 404', async () => {
    const { call } = await adminWorld(server);
    const response = await call({ method: 'POST', path: `/webhooks/${randomUUID()}/deliveries/recover`, body: { since: new Date().toISOString() } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(WEBHOOK_NOT_FOUND);
  });
});
