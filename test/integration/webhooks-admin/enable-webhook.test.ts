import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/test-server.js';
import { answer } from '../../support/webhook-receiver.js';
import { adminWorld, createWebhook, emit, receiver, startDispatcher, until } from './helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

type WebhookBody = { data: { enabled: boolean; disabled_at: string | null; consecutive_failures: number; updated_at: string } };

describe('POST /api/workspace/{workspace_id}/webhooks/{webhook_id}/enable', () => {
  it('when the service disabled it after 10 failed deliveries, enables it, resets the counter, and deliveries flow again', async () => {
    const { workspace, call } = await adminWorld(server);
    let healthy = false;
    const r = await receiver(() => (healthy ? answer(204) : answer(503, 'down')));
    const { id } = await createWebhook(call, { url: r.url });
    const dispatcher = startDispatcher(server, { retryScheduleMs: [], disableAfterFailures: 10 });
    for (let i = 0; i < 10; i += 1) await emit(server, workspace.workspaceId);
    await until(() => r.requests.length >= 10, 10_000, 'ten failed attempts');
    await dispatcher.drain();
    const tripped = ((await call({ path: `/webhooks/${id}` })).body as WebhookBody).data;
    expect(tripped).toMatchObject({ enabled: false, consecutive_failures: 10, disabled_at: expect.any(String) });

    const response = await call({ method: 'POST', path: `/webhooks/${id}/enable` });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: 2000,
      messages: 'Enabled.',
      data: expect.objectContaining({ id, enabled: true, consecutive_failures: 0, disabled_at: null }),
    });
    healthy = true;
    await emit(server, workspace.workspaceId);
    await until(() => r.requests.length === 11, 10_000, 'a delivery after enabling');
  });

  it('when already enabled, answers it unchanged', async () => {
    const { call } = await adminWorld(server);
    const { id, response: created } = await createWebhook(call, { url: 'http://127.0.0.1:9/hooks' });
    const response = await call({ method: 'POST', path: `/webhooks/${id}/enable` });
    expect(response.body).toEqual({ code: 2000, messages: 'Enabled.', data: (created.body as { data: { webhook: object } }).data.webhook });
  });
});
