import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  listDeliveries,
  recoverFailedSince,
  redeliver,
  SAMPLE_EVENT_DATA,
} from '../../../src/webhooks/delivery/index.js';
import { ServiceError } from '../../../src/errors/service-error.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { answer } from '../../support/webhook-receiver.js';
import { createTestWebhook } from '../../support/webhooks.js';
import { emit, startDeliveryWorld, until, verifyDelivery, receiver } from './helpers.js';
import { valueOf } from '../../support/database-rows.js';
import { Cursors } from '../../../src/pagination/cursor.js';

const CURSORS = new Cursors(randomBytes(32).toString('base64url'));

describe('webhook deliveries: list, redeliver, recover, drop', () => {
  it('when listing, answers each delivery with its latest attempt, newest first, filtered and paged', async () => {
    const { store, workspace, dispatcher } = await startDeliveryWorld({ retryScheduleMs: [] });
    const r = await receiver((q) => (q.rawBody.includes('"fail"') ? answer(500, 'nope') : answer(200, 'thanks')));
    const hook = await createTestWebhook(store, workspace, { url: r.url });
    const ok = await emit(store, workspace.workspaceId, 'content.status_updated', { title: 'ok' });
    await dispatcher.drain();
    const bad = await emit(store, workspace.workspaceId, 'topic.status_updated', { name: 'fail' });
    await dispatcher.drain();
    await until(async () => (await store.webhookDeliveries.countPending()) === 0, 5_000, 'all attempted');
    const idOf = async (eventId: string) => (await valueOf<string>(store, 'SELECT id FROM webhook_deliveries WHERE event_id = ?', [eventId]))!;
    const badId = await idOf(bad);
    const okId = await idOf(ok);

    const all = await listDeliveries(store, CURSORS, { workspaceId: workspace.workspaceId, webhookId: hook.id, limit: 25 });
    expect(all).toEqual({
      items: [
        {
          id: badId,
          webhook_id: hook.id,
          event_type: 'topic.status_updated',
          payload: { event: 'topic.status_updated', timestamp: expect.any(String), workspace_id: workspace.workspaceId, is_test: false, data: { ...SAMPLE_EVENT_DATA['topic.status_updated'], id: expect.any(String), name: 'fail' } },
          http_status: 500,
          response_body: 'nope',
          response_time_ms: expect.any(Number),
          attempt: 1,
          max_attempts: 1,
          delivery_status: 'failed',
          next_attempt_at: null,
          created_at: expect.any(String),
        },
        {
          id: okId,
          webhook_id: hook.id,
          event_type: 'content.status_updated',
          payload: { event: 'content.status_updated', timestamp: expect.any(String), workspace_id: workspace.workspaceId, is_test: false, data: { ...SAMPLE_EVENT_DATA['content.status_updated'], id: expect.any(String), title: 'ok' } },
          http_status: 200,
          response_body: 'thanks',
          response_time_ms: expect.any(Number),
          attempt: 1,
          max_attempts: 1,
          delivery_status: 'delivered',
          next_attempt_at: null,
          created_at: expect.any(String),
        },
      ],
      next_cursor: null,
    });

    expect((await listDeliveries(store, CURSORS, { workspaceId: workspace.workspaceId, webhookId: hook.id, status: 'failed', limit: 25 })).items.map((d) => d.id)).toEqual([badId]);
    expect((await listDeliveries(store, CURSORS, { workspaceId: workspace.workspaceId, webhookId: hook.id, eventType: 'content.status_updated', limit: 25 })).items.map((d) => d.id)).toEqual([okId]);

    const first = await listDeliveries(store, CURSORS, { workspaceId: workspace.workspaceId, webhookId: hook.id, limit: 1 });
    expect(first.items.map((d) => d.id)).toEqual([badId]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await listDeliveries(store, CURSORS, { workspaceId: workspace.workspaceId, webhookId: hook.id, limit: 1, cursor: first.next_cursor! });
    expect(second).toEqual({ items: [expect.objectContaining({ id: okId })], next_cursor: null });

    // A cursor is bound to its list and filters; another workspace sees nothing of this webhook.
    await expect(listDeliveries(store, CURSORS, { workspaceId: workspace.workspaceId, webhookId: hook.id, status: 'failed', limit: 1, cursor: first.next_cursor! })).rejects.toThrow(ServiceError);
    const other = await createTestWorkspace(store);
    expect(await listDeliveries(store, CURSORS, { workspaceId: other.workspaceId, webhookId: hook.id, limit: 25 })).toEqual({ items: [], next_cursor: null });
  });

  it('when a delivered delivery is redelivered, sends the same body under the same webhook-id again and shows delivered', async () => {
    const { store, workspace, dispatcher } = await startDeliveryWorld();
    const r = await receiver();
    const hook = await createTestWebhook(store, workspace, { url: r.url });
    await emit(store, workspace.workspaceId);
    const [original] = await r.waitForRequests(1);
    await dispatcher.drain();
    const id = original!.headers['webhook-id'] as string;
    await until(async () => (await store.webhookDeliveries.getById(id))?.status === 'delivered', 5_000, 'delivered');

    const view = await redeliver(store, { workspaceId: workspace.workspaceId, webhookId: hook.id, deliveryId: id, now: new Date() });
    expect(view).toMatchObject({ id, delivery_status: 'pending', attempt: 0 });
    const [, again] = await r.waitForRequests(2);
    expect(again!.headers['webhook-id']).toBe(id);
    expect(again!.rawBody).toBe(original!.rawBody);
    verifyDelivery(hook.secret, again!);
    await until(async () => (await store.webhookDeliveries.getById(id))?.status === 'delivered', 5_000, 'delivered again');
    expect((await store.webhookDeliveries.attempts(id)).map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'success'],
      [1, 'success'],
    ]);
  });

  it('when a failed delivery is redelivered and gets through, shows recovered and resets the failure count', async () => {
    const { store, workspace, dispatcher } = await startDeliveryWorld({ retryScheduleMs: [] });
    let up = false;
    const r = await receiver(() => (up ? answer(200) : answer(503)));
    const hook = await createTestWebhook(store, workspace, { url: r.url });
    await emit(store, workspace.workspaceId);
    const [request] = await r.waitForRequests(1);
    const id = request!.headers['webhook-id'] as string;
    await until(async () => (await store.webhookDeliveries.getById(id))?.status === 'failed', 5_000, 'failed');
    expect(await valueOf(store, 'SELECT consecutive_failures FROM webhooks WHERE id = ?', [hook.id])).toBe(1);

    up = true;
    await redeliver(store, { workspaceId: workspace.workspaceId, webhookId: hook.id, deliveryId: id, now: new Date() });
    await dispatcher.drain();
    await until(async () => (await store.webhookDeliveries.getById(id))?.status === 'recovered', 5_000, 'recovered');
    expect((await listDeliveries(store, CURSORS, { workspaceId: workspace.workspaceId, webhookId: hook.id, status: 'recovered', limit: 5 })).items).toEqual([
      expect.objectContaining({ id, delivery_status: 'recovered', http_status: 200, attempt: 1 }),
    ]);
    expect(await valueOf(store, 'SELECT consecutive_failures FROM webhooks WHERE id = ?', [hook.id])).toBe(0);
  });

  it('when the delivery is not one of that webhook in that workspace, redeliver answers undefined', async () => {
    const { store, workspace } = await startDeliveryWorld();
    const hook = await createTestWebhook(store, workspace, { url: 'http://127.0.0.1:9/hooks', enabled: false });
    await emit(store, workspace.workspaceId);
    expect(await redeliver(store, { workspaceId: workspace.workspaceId, webhookId: hook.id, deliveryId: crypto.randomUUID(), now: new Date() })).toBeUndefined();
    const other = await createTestWorkspace(store);
    const otherHook = await createTestWebhook(store, other, { url: 'http://127.0.0.1:9/hooks', enabled: false });
    expect(await redeliver(store, { workspaceId: workspace.workspaceId, webhookId: otherHook.id, deliveryId: crypto.randomUUID(), now: new Date() })).toBeUndefined();
  });

  it('when recovering failed deliveries since a time, queues again only the failed ones created since then; each shows recovered once through', async () => {
    const { store, workspace, dispatcher } = await startDeliveryWorld({ retryScheduleMs: [], perWebhookConcurrency: 1 });
    let up = false;
    const r = await receiver(() => (up ? answer(200) : answer(500)));
    const hook = await createTestWebhook(store, workspace, { url: r.url });
    await emit(store, workspace.workspaceId); // fails before the cut-off
    await dispatcher.drain();
    await until(async () => (await store.webhookDeliveries.countPending()) === 0, 5_000, 'first failed');
    await new Promise((done) => setTimeout(done, 5));
    const since = new Date();
    for (let i = 0; i < 3; i += 1) await emit(store, workspace.workspaceId);
    await dispatcher.drain();
    await until(async () => (await store.webhookDeliveries.countPending()) === 0, 5_000, 'all failed');
    expect((await listDeliveries(store, CURSORS, { workspaceId: workspace.workspaceId, webhookId: hook.id, status: 'failed', limit: 10 })).items).toHaveLength(4);

    up = true;
    expect(await recoverFailedSince(store, { workspaceId: workspace.workspaceId, webhookId: hook.id, since: since.toISOString(), now: new Date() })).toEqual({ recovered: 3 });
    await dispatcher.drain();
    await until(async () => (await store.webhookDeliveries.countPending()) === 0, 5_000, 'recovered sent');
    const byStatus = async (status: 'failed' | 'recovered') =>
      (await listDeliveries(store, CURSORS, { workspaceId: workspace.workspaceId, webhookId: hook.id, status, limit: 10 })).items.length;
    expect({ failed: await byStatus('failed'), recovered: await byStatus('recovered') }).toEqual({ failed: 1, recovered: 3 });
    expect(await recoverFailedSince(store, { workspaceId: workspace.workspaceId, webhookId: hook.id, since, now: new Date() })).toEqual({ recovered: 0 });
    await expect(recoverFailedSince(store, { workspaceId: workspace.workspaceId, webhookId: hook.id, since: 'yesterday', now: new Date() })).rejects.toThrow(/since must be/);
  });
});
