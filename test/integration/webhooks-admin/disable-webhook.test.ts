import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, createWebhook, emit, receiver, startDispatcher, WEBHOOK_NOT_FOUND } from './helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

type WebhookBody = { data: { enabled: boolean; disabled_at: string | null; consecutive_failures: number; updated_at: string } };

describe('POST /api/workspace/{workspace_id}/webhooks/{webhook_id}/disable', () => {
  it('when enabled, disables it (recording when); disabling again changes nothing', async () => {
    const { call } = await adminWorld(server);
    const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/hooks' });
    const first = await call({ method: 'POST', path: `/webhooks/${id}/disable` });
    expect(first.status).toBe(200);
    const disabled = (first.body as WebhookBody).data;
    expect(first.body).toEqual({ code: 2000, messages: 'Disabled.', data: expect.objectContaining({ id, enabled: false, disabled_at: expect.any(String) }) });
    const again = await call({ method: 'POST', path: `/webhooks/${id}/disable` });
    expect((again.body as WebhookBody).data).toEqual(disabled);
  });

  it('when disabled, events that occur are not sent to it', async () => {
    const { workspace, call } = await adminWorld(server);
    const r = await receiver();
    const { id } = await createWebhook(call, { url: r.url });
    await call({ method: 'POST', path: `/webhooks/${id}/disable` });
    await emit(server, workspace.workspaceId);
    const dispatcher = startDispatcher(server);
    await dispatcher.drain();
    expect(r.requests).toHaveLength(0);
  });

  it('when the webhook is unknown, answers 404', async () => {
    const { call } = await adminWorld(server);
    const response = await call({ method: 'POST', path: `/webhooks/${randomUUID()}/disable` });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(WEBHOOK_NOT_FOUND);
  });
});
