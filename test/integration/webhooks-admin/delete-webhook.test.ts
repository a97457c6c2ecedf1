import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, createWebhook, emit, WEBHOOK_NOT_FOUND } from './helpers.js';
import { valueOf } from '../../support/database-rows.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

describe('DELETE /api/workspace/{workspace_id}/webhooks/{webhook_id}', () => {
  it('when the webhook exists, answers 2040 and removes it with its whole delivery log, sent or not', async () => {
    const { workspace, call } = await adminWorld(server);
    const gone = await createWebhook(call, { url: 'http://127.0.0.1:9/gone' });
    const kept = await createWebhook(call, { url: 'http://127.0.0.1:9/kept' });
    await emit(server, workspace.workspaceId);
    await emit(server, workspace.workspaceId);
    const pendingOf = (webhookId: string) =>
      call({ path: `/webhooks/${webhookId}/deliveries`, query: { status: 'pending' } });
    expect(((await pendingOf(gone.id)).body as { data: { items: unknown[] } }).data.items).toHaveLength(2);

    const response = await call({ method: 'DELETE', path: `/webhooks/${gone.id}` });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ code: 2040, messages: 'Deleted.', data: { id: gone.id, deleted: true } });
    expect((await call({ path: `/webhooks/${gone.id}` })).body).toEqual(WEBHOOK_NOT_FOUND);
    expect((await pendingOf(gone.id)).status).toBe(404);
    expect(((await pendingOf(kept.id)).body as { data: { items: unknown[] } }).data.items).toHaveLength(2);
    const left = await valueOf(server.store, 'SELECT count(*) FROM webhook_deliveries WHERE webhook_id = ?', [gone.id]);
    expect(left).toBe(0);
  });

  it('when the webhook is already deleted, unknown or another workspace\'s, answers 404', async () => {
    const mine = await adminWorld(server);
    const theirs = await adminWorld(server);
    const own = await createWebhook(mine.call, { url: 'http://127.0.0.1:9/x' });
    const foreign = await createWebhook(theirs.call, { url: 'http://127.0.0.1:9/x' });
    expect((await mine.call({ method: 'DELETE', path: `/webhooks/${own.id}` })).status).toBe(200);
    for (const id of [own.id, randomUUID(), foreign.id]) {
      const response = await mine.call({ method: 'DELETE', path: `/webhooks/${id}` });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(WEBHOOK_NOT_FOUND);
    }
    expect((await theirs.call({ path: `/webhooks/${foreign.id}` })).status).toBe(200);
  });
});
