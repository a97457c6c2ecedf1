import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, createWebhook, WEBHOOK_NOT_FOUND } from './helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

describe('GET /api/workspace/{workspace_id}/webhooks/{webhook_id}', () => {
  it('when the webhook exists, answers it with the secret masked to its last four characters', async () => {
    const { call } = await adminWorld(server);
    const { id, secret, response: created } = await createWebhook(call, {
      url: 'http://127.0.0.1:9/hooks',
      name: 'CRM sync',
      description: null,
      events: ['agent_task.status_updated'],
    });
    const response = await call({ path: `/webhooks/${id}` });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      code: 2000,
      messages: 'OK',
      data: (created.body as { data: { webhook: object } }).data.webhook,
    });
    expect((response.body as { data: { secret_masked: string } }).data.secret_masked).toBe(`whsec_…${secret.slice(-4)}`);
    expect(response.text).not.toContain(secret.slice(6, 20));
  });

  it('when the webhook does not exist or belongs to another workspace, answers the same 404', async () => {
    const mine = await adminWorld(server);
    const theirs = await adminWorld(server);
    const foreign = await createWebhook(theirs.call, { url: 'http://127.0.0.1:9/hooks' });
    const a = await mine.call({ path: `/webhooks/${foreign.id}` });
    const b = await mine.call({ path: `/webhooks/${randomUUID()}` });
    expect(a.status).toBe(404);
    expect(a.body).toEqual(WEBHOOK_NOT_FOUND);
    expect(b.body).toEqual(WEBHOOK_NOT_FOUND);
  });

  it('when the webhook id is not a UUID, answers 422 naming it', async () => {
    const { call } = await adminWorld(server);
    const response = await call({ path: '/webhooks/12' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      code: 4220,
      messages: 'Invalid parameters: path.webhook_id must match format "uuid".',
      data: { errors: [{ in: 'path', name: 'webhook_id', message: 'must match format "uuid"' }] },
    });
  });
});
