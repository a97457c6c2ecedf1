import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { useTestServer } from '../../support/test-server.js';
import { startConfiguredServer } from '../../support/process-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { answer } from '../../support/webhook-receiver.js';
import { adminWorld, createWebhook, receiver, WEBHOOK_NOT_FOUND } from './helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

const ZERO = '00000000-0000-0000-0000-000000000000';

describe('POST /api/workspace/{workspace_id}/webhooks/{webhook_id}/test', () => {
  it('when the receiver answers, sends a signed sample with is_test and zeroed ids, and answers its status and time', async () => {
    const { workspace, call } = await adminWorld(server);
    const r = await receiver(() => answer(202, 'accepted'));
    const { id, secret } = await createWebhook(call, { url: r.url, events: ['topic.status_updated'] });
    const response = await call({ method: 'POST', path: `/webhooks/${id}/test`, body: { event: 'iq.status_updated' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: 2000,
      messages: 'Test delivery answered 202.',
      data: { event: 'iq.status_updated', success: true, http_status: 202, response_time_ms: expect.any(Number), error: null },
    });
    const [request] = r.requests;
    const payload = new Webhook(secret).verify(request!.rawBody, request!.headers as Record<string, string>) as Record<string, unknown>;
    expect(payload).toMatchObject({ event: 'iq.status_updated', is_test: true, workspace_id: workspace.workspaceId, data: { id: ZERO } });
    expect(request!.headers['x-webhook-event']).toBe('iq.status_updated');
  });

  it('when the receiver fails, answers 200 with success false and never its body', async () => {
    const { call } = await adminWorld(server);
    const r = await receiver(() => answer(500, 'stack trace: db password hunter2'));
    const { id } = await createWebhook(call, { url: r.url });
    const response = await call({ method: 'POST', path: `/webhooks/${id}/test`, body: { event: 'content.status_updated' } });
    expect(response.body).toEqual({
      code: 2000,
      messages: 'Test delivery failed: answered 500.',
      data: { event: 'content.status_updated', success: false, http_status: 500, response_time_ms: expect.any(Number), error: 'answered 500' },
    });
    expect(response.text).not.toContain('hunter2');
  });

  it('when nothing listens at the URL, answers success false with no status and the reason', async () => {
    const { call } = await adminWorld(server);
    const closed = await receiver();
    await closed.close();
    const { id } = await createWebhook(call, { url: closed.url });
    const response = await call({ method: 'POST', path: `/webhooks/${id}/test`, body: { event: 'content.status_updated' } });
    expect(response.body).toEqual({
      code: 2000,
      messages: expect.stringMatching(/^Test delivery failed: .*ECONNREFUSED/),
      data: { event: 'content.status_updated', success: false, http_status: null, response_time_ms: expect.any(Number), error: expect.stringContaining('ECONNREFUSED') },
    });
  });

  it('when the webhook is disabled, still sends the test', async () => {
    const { call } = await adminWorld(server);
    const r = await receiver();
    const { id } = await createWebhook(call, { url: r.url });
    await call({ method: 'POST', path: `/webhooks/${id}/disable` });
    const response = await call({ method: 'POST', path: `/webhooks/${id}/test`, body: { event: 'sitemap_url.status_updated' } });
    expect((response.body as { data: { success: boolean } }).data.success).toBe(true);
    expect(r.requests).toHaveLength(1);
  });

  it('when the request has no body, or a body without event, sends the first event the webhook subscribes to', async () => {
    const { call, token, workspace } = await adminWorld(server);
    const r = await receiver();
    const { id, secret } = await createWebhook(call, { url: r.url, events: ['iq.status_updated', 'topic.status_updated'] });
    const bodyless = await fetch(`${server.url}/api/workspace/${workspace.workspaceId}/webhooks/${id}/test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const empty = await call({ method: 'POST', path: `/webhooks/${id}/test`, body: {} });
    for (const response of [{ status: bodyless.status, body: await bodyless.json() }, empty]) {
      expect([response.status, response.body]).toEqual([200, {
        code: 2000,
        messages: 'Test delivery answered 200.',
        data: { event: 'topic.status_updated', success: true, http_status: 200, response_time_ms: expect.any(Number), error: null },
      }]);
    }
    expect(r.requests).toHaveLength(2);
    for (const request of r.requests) {
      const payload = new Webhook(secret).verify(request.rawBody, request.headers as Record<string, string>) as Record<string, unknown>;
      expect(payload).toMatchObject({ event: 'topic.status_updated', is_test: true });
    }
  });

  it('when the event is unknown, answers 422 naming event', async () => {
    const { call } = await adminWorld(server);
    const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/hooks' });
    const unknown = await call({ method: 'POST', path: `/webhooks/${id}/test`, body: { event: 'content.deleted' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({
      code: 4220,
      messages: expect.stringContaining('body.event must be equal to one of the allowed values'),
      data: { errors: [{ in: 'body', name: 'event', message: expect.stringContaining('must be equal to one of the allowed values') }] },
    });
  });

  it('when the webhook is unknown, answers 404 and sends nothing', async () => {
    const { call } = await adminWorld(server);
    const response = await call({ method: 'POST', path: `/webhooks/${randomUUID()}/test`, body: { event: 'content.status_updated' } });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(WEBHOOK_NOT_FOUND);
  });
});

describe('POST /api/workspace/{workspace_id}/webhooks/{webhook_id}/test with WEBHOOK_TIMEOUT_MS set', () => {
  it('when the receiver never answers, gives up after the configured timeout, as a real delivery does', async () => {
    const running = await startConfiguredServer({ WEBHOOK_TIMEOUT_MS: '300', WEBHOOK_ALLOW_PRIVATE: 'true' });
    try {
      const workspace = await createTestWorkspace(running.store);
      const call = adminClient(running.url, workspace.workspaceId, (await createTestMemberToken(running.store, workspace)).token);
      const hanging = await receiver(() => 'hang');
      const { id } = await createWebhook(call, { url: hanging.url });
      const response = await call({ method: 'POST', path: `/webhooks/${id}/test`, body: { event: 'topic.status_updated' } });
      expect(response.body).toEqual({
        code: 2000,
        messages: 'Test delivery failed: timed out after 300 ms.',
        data: { event: 'topic.status_updated', success: false, http_status: null, response_time_ms: expect.any(Number), error: 'timed out after 300 ms' },
      });
    } finally {
      await running.close();
    }
  });
});
