import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/test-server.js';
import { answer } from '../../support/webhook-receiver.js';
import { adminWorld, createWebhook, emit, receiver, startDispatcher, until, WEBHOOK_NOT_FOUND } from './helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

type Page = { data: { items: Array<{ id: string; delivery_status: string }> } };

describe('POST /api/workspace/{workspace_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver', () => {
  it('when a delivery failed, queues it again (202, 2020); it arrives with the same webhook-id and shows recovered', async () => {
    const { workspace, call } = await adminWorld(server);
    let up = false;
    const r = await receiver(() => (up ? answer(200) : answer(503)));
    const { id } = await createWebhook(call, { url: r.url });
    const dispatcher = startDispatcher(server, { retryScheduleMs: [] });
    await emit(server, workspace.workspaceId);
    await until(() => r.requests.length === 1, 5_000, 'the failing attempt');
    await dispatcher.drain();
    const [failed] = ((await call({ path: `/webhooks/${id}/deliveries` })).body as Page).data.items;
    expect(failed!.delivery_status).toBe('failed');

    up = true;
    const response = await call({ method: 'POST', path: `/webhooks/${id}/deliveries/${failed!.id}/redeliver` });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({
      code: 2020,
      messages: 'Redelivery queued.',
      data: expect.objectContaining({ id: failed!.id, webhook_id: id, delivery_status: 'pending' }),
    });
    await until(() => r.requests.length === 2, 5_000, 'the redelivery');
    await dispatcher.drain();
    expect(r.requests[1]!.headers['webhook-id']).toBe(r.requests[0]!.headers['webhook-id']);
    expect(r.requests[1]!.rawBody).toBe(r.requests[0]!.rawBody);
    const [recovered] = ((await call({ path: `/webhooks/${id}/deliveries` })).body as Page).data.items;
    expect(recovered).toMatchObject({ id: failed!.id, delivery_status: 'recovered' });
  });

  it('when the delivery is unknown or belongs to another webhook, answers 404', async () => {
    const { workspace, call } = await adminWorld(server);
    const one = await createWebhook(call, { url: 'http://127.0.0.1:9/one' });
    const two = await createWebhook(call, { url: 'http://127.0.0.1:9/two' });
    await emit(server, workspace.workspaceId);
    const [ofTwo] = ((await call({ path: `/webhooks/${two.id}/deliveries` })).body as Page).data.items;
    for (const deliveryId of [randomUUID(), ofTwo!.id]) {
      const response = await call({ method: 'POST', path: `/webhooks/${one.id}/deliveries/${deliveryId}/redeliver` });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 4040, messages: 'Delivery not found.', data: null });
    }
  });

  it('when the webhook is unknown, answers 404 for the webhook', async () => {
    const { call } = await adminWorld(server);
    const response = await call({ method: 'POST', path: `/webhooks/${randomUUID()}/deliveries/${randomUUID()}/redeliver` });
    expect(response.body).toEqual(WEBHOOK_NOT_FOUND);
  });
});
