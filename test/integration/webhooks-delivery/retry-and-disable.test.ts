import { describe, expect, it } from 'vitest';
import { answer } from '../../support/webhook-receiver.js';
import { createTestWebhook, webhookState } from '../../support/webhooks.js';
import { emit, startDeliveryWorld, until, receiver } from './helpers.js';
import { rowsOf, valueOf } from '../../support/database-rows.js';

describe('webhook delivery: retries, failure and auto-disable', () => {
  it('when the receiver fails twice then answers 2xx, retries on the schedule and is delivered on the third attempt', async () => {
    const schedule = [60, 120, 240];
    const { store, workspace } = await startDeliveryWorld({ retryScheduleMs: schedule });
    const r = await receiver((_q, i) => (i < 2 ? answer(500, `down ${i}`) : answer(202, 'accepted')));
    const hook = await createTestWebhook(store, workspace, { url: r.url });
    await emit(store, workspace.workspaceId);

    const requests = await r.waitForRequests(3);
    const id = requests[0]!.headers['webhook-id'] as string;
    await until(async () => (await store.webhookDeliveries.getById(id))?.status === 'delivered', 5_000, 'delivered');
    // Each wait is its schedule step within the ±20% jitter (never shorter than 80% of it).
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(schedule[0]! * 0.8 - 5);
    expect(requests[2]!.receivedAt - requests[1]!.receivedAt).toBeGreaterThanOrEqual(schedule[1]! * 0.8 - 5);
    expect((await store.webhookDeliveries.attempts(id)).map(({ attempt, outcome, http_status, response_body, error }) => ({ attempt, outcome, http_status, response_body, error }))).toEqual([
      { attempt: 1, outcome: 'failure', http_status: 500, response_body: 'down 0', error: 'answered 500' },
      { attempt: 2, outcome: 'failure', http_status: 500, response_body: 'down 1', error: 'answered 500' },
      { attempt: 3, outcome: 'success', http_status: 202, response_body: 'accepted', error: null },
    ]);
    expect(await store.webhookDeliveries.getById(id)).toMatchObject({ status: 'delivered', attempt: 3, max_attempts: 4, http_status: 202, lease_until: null });
    expect(await webhookState(store, hook.id)).toEqual({ enabled: 1, consecutive_failures: 0, disabled_at: null });
  });

  it('when every attempt fails, the delivery is failed after its last attempt and the webhook counts one failed delivery', async () => {
    const { store, workspace } = await startDeliveryWorld({ retryScheduleMs: [10, 10] });
    const r = await receiver(() => answer(500, 'no'));
    const hook = await createTestWebhook(store, workspace, { url: r.url });
    await emit(store, workspace.workspaceId);
    const requests = await r.waitForRequests(3);
    const id = requests[0]!.headers['webhook-id'] as string;
    await until(async () => (await store.webhookDeliveries.getById(id))?.status === 'failed', 5_000, 'failed');
    await new Promise((done) => setTimeout(done, 100));
    expect(r.requests).toHaveLength(3);
    expect(await store.webhookDeliveries.getById(id)).toMatchObject({ status: 'failed', attempt: 3, max_attempts: 3, http_status: 500, error: 'answered 500' });
    expect(await webhookState(store, hook.id)).toEqual({ enabled: 1, consecutive_failures: 1, disabled_at: null });
  });

  it('when 10 deliveries in a row fail, disables the webhook; its pending deliveries wait, and after enabling they go out and the counter resets', async () => {
    // One attempt per delivery and one at a time, so the eleventh and twelfth are still pending at the tenth failure.
    const { store, workspace } = await startDeliveryWorld({ retryScheduleMs: [], perWebhookConcurrency: 1 });
    let healthy = false;
    const r = await receiver(() => (healthy ? answer(200) : answer(500, 'down')));
    const hook = await createTestWebhook(store, workspace, { url: r.url });
    for (let i = 0; i < 12; i += 1) await emit(store, workspace.workspaceId);

    await until(async () => (await webhookState(store, hook.id)).enabled === 0, 10_000, 'auto-disable');
    await new Promise((done) => setTimeout(done, 150));
    expect(await webhookState(store, hook.id)).toEqual({ enabled: 0, consecutive_failures: 10, disabled_at: expect.any(String) });
    expect(r.requests).toHaveLength(10);
    const statuses = await rowsOf(store, 'SELECT status, count(*) AS n FROM webhook_deliveries GROUP BY status ORDER BY status');
    expect(statuses).toEqual([
      { status: 'failed', n: 10 },
      { status: 'pending', n: 2 },
    ]);

    // A status change while disabled does not queue anything for this webhook.
    await emit(store, workspace.workspaceId);
    expect(await valueOf(store, 'SELECT count(*) FROM webhook_deliveries')).toBe(12);

    healthy = true;
    // What the owner's "enable" does (the administration API's store).
    await store.webhooks.enable(workspace.workspaceId, hook.id, new Date().toISOString());
    expect(await webhookState(store, hook.id)).toEqual({ enabled: 1, consecutive_failures: 0, disabled_at: null });
    await r.waitForRequests(12);
    await until(async () => (await store.webhookDeliveries.countPending()) === 0, 5_000, 'pending sent');
    expect(await webhookState(store, hook.id)).toEqual({ enabled: 1, consecutive_failures: 0, disabled_at: null });
  });

  it('when a delivery succeeds between failures, the consecutive failure count starts over', async () => {
    const { store, workspace } = await startDeliveryWorld({ retryScheduleMs: [], perWebhookConcurrency: 1 });
    const outcomes = [500, 500, 200, 500];
    const r = await receiver((_q, i) => answer(outcomes[i] ?? 500));
    const hook = await createTestWebhook(store, workspace, { url: r.url });
    for (let i = 0; i < outcomes.length; i += 1) await emit(store, workspace.workspaceId);
    await r.waitForRequests(4);
    await until(async () => (await store.webhookDeliveries.countPending()) === 0, 5_000, 'all attempted');
    expect(await webhookState(store, hook.id)).toEqual({ enabled: 1, consecutive_failures: 1, disabled_at: null });
  });
});
