import { describe, expect, it } from 'vitest';
import { answer, type TestReceiver } from '../../support/webhook-receiver.js';
import type { AttemptRow } from '../../../src/store/interfaces/webhook-deliveries.js';
import { createTestWebhook } from '../../support/webhooks.js';
import { emit, receiver, startDeliveryWorld, until } from './helpers.js';
import { rowsOf, valueOf } from '../../support/database-rows.js';
import { freePort } from '../../support/free-port.js';

type World = Awaited<ReturnType<typeof startDeliveryWorld>>;

/** Waits for the receiver's first request and for its delivery to fail; answers the delivery's last attempt. */
async function failedAttempt(store: World['store'], r: TestReceiver): Promise<AttemptRow> {
  const [request] = await r.waitForRequests(1);
  const id = request!.headers['webhook-id'] as string;
  await until(async () => (await store.webhookDeliveries.getById(id))?.status === 'failed', 5_000, 'failed');
  return (await store.webhookDeliveries.attempts(id)).at(-1)!;
}

describe('webhook delivery: what counts as a failed attempt', () => {
  it('when the receiver answers with a redirect, the attempt fails and the redirect is not followed', async () => {
    const { store, workspace } = await startDeliveryWorld({ retryScheduleMs: [] });
    const target = await receiver();
    const r = await receiver(() => ({ status: 302, headers: { location: target.url }, body: '' }));
    await createTestWebhook(store, workspace, { url: r.url });
    await emit(store, workspace.workspaceId);
    const attempt = await failedAttempt(store, r);
    expect(attempt).toMatchObject({ outcome: 'failure', http_status: 302, error: 'answered 302: redirects are not followed' });
    expect(target.requests).toEqual([]);
  });

  it('when the receiver does not answer within the timeout, the attempt fails as timed out', async () => {
    const { store, workspace } = await startDeliveryWorld({ retryScheduleMs: [], timeoutMs: 300 });
    const r = await receiver(() => 'hang');
    await createTestWebhook(store, workspace, { url: r.url });
    await emit(store, workspace.workspaceId);
    const attempt = await failedAttempt(store, r);
    expect(attempt).toMatchObject({ outcome: 'failure', http_status: null, response_body: null, error: 'timed out after 300 ms' });
    expect(attempt.response_time_ms).toBeGreaterThanOrEqual(290);
    expect(attempt.response_time_ms).toBeLessThan(2_000);
  });

  it('when one receiver hangs, another webhook\'s deliveries go out at once', async () => {
    // The hanging receiver's attempts time out after 20 s: a healthy webhook that waited for them
    // would take at least that long, so "at once" is anything well under it, even on a busy machine.
    const { store, workspace } = await startDeliveryWorld({ timeoutMs: 20_000, leaseMs: 40_000, perWebhookConcurrency: 2 });
    const hanging = await receiver(() => 'hang');
    const healthy = await receiver();
    await createTestWebhook(store, workspace, { url: hanging.url });
    await createTestWebhook(store, workspace, { url: healthy.url });
    // More than the hanging webhook's concurrency, so it has a backlog the whole time.
    const started = Date.now();
    for (let i = 0; i < 20; i += 1) await emit(store, workspace.workspaceId);
    await healthy.waitForRequests(20, 10_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(hanging.requests).toHaveLength(2);
  });

  it('when the receiver answers with a long body, keeps only its first 2 KB without splitting a character', async () => {
    const { store, workspace } = await startDeliveryWorld({ retryScheduleMs: [] });
    const long = `${'a'.repeat(2047)}é${'b'.repeat(10_000)}`;
    const r = await receiver(() => answer(400, long));
    await createTestWebhook(store, workspace, { url: r.url });
    await emit(store, workspace.workspaceId);
    const attempt = await failedAttempt(store, r);
    expect(attempt.response_body).toBe('a'.repeat(2047));
    expect(attempt).toMatchObject({ http_status: 400, error: 'answered 400' });
    expect((await store.webhookDeliveries.getById(attempt.delivery_id))?.response_body).toBe('a'.repeat(2047));
  });

  it('when nothing listens at the address, the attempt fails as a connection failure', async () => {
    const { store, workspace } = await startDeliveryWorld({ retryScheduleMs: [] });
    const port = await freePort();
    const hook = await createTestWebhook(store, workspace, { url: `http://127.0.0.1:${port}/hooks` });
    await emit(store, workspace.workspaceId);
    await until(async () => (await valueOf(store, "SELECT count(*) FROM webhook_deliveries WHERE status = 'failed'")) === 1, 5_000, 'failed');
    const [row] = await rowsOf<{ id: string }>(store, 'SELECT id FROM webhook_deliveries WHERE webhook_id = ?', [hook.id]);
    expect((await store.webhookDeliveries.attempts(row!.id))[0]).toMatchObject({ outcome: 'failure', http_status: null, error: expect.stringMatching(/^connection failed: ECONNREFUSED/) });
  });
});
