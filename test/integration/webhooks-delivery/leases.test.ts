import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createDeliveryDispatcher } from '../../../src/webhooks/delivery/index.js';
import { answer } from '../../support/webhook-receiver.js';
import { createTestWebhook, silentLogger, testDeliveryConfig } from '../../support/webhooks.js';
import { holdWriteLock } from '../../support/write-lock.js';
import { maxEventLoopLag } from '../../support/wait.js';
import { emit, onCleanup, startDeliveryWorld, until, receiver } from './helpers.js';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { itSqliteOnly } from '../../support/store-kind.js';

describe('webhook delivery: leases and at-least-once', () => {
  it('when a claimed delivery\'s lease runs out with no outcome (the process died), it is sent again under the same attempt number', async () => {
    const { store, workspace, dispatcher } = await startDeliveryWorld();
    await dispatcher.stop();
    const r = await receiver();
    const hook = await createTestWebhook(store, workspace, { url: r.url });
    await emit(store, workspace.workspaceId);
    // A process claims it and dies before sending or recording anything.
    const now = new Date();
    const leaseUntil = now.getTime() + 1_000;
    const [claimed] = await store.webhookDeliveries.claimDue({
      now: now.toISOString(),
      lease_until: new Date(leaseUntil).toISOString(),
      lease_token: 'dead-process',
      rooms: new Map([[hook.id, 4]]),
      limit: 10,
      max_attempts: 4,
    });
    expect(claimed).toMatchObject({ attempt: 1, lease_token: 'dead-process' });

    const next = createDeliveryDispatcher({ store, logger: silentLogger, config: testDeliveryConfig() });
    next.start();
    onCleanup(() => next.stop());
    const [request] = await r.waitForRequests(1);
    expect(request!.headers['webhook-id']).toBe(claimed!.id);
    expect(request!.receivedAt).toBeGreaterThanOrEqual(leaseUntil); // not while the lease held
    await until(async () => (await store.webhookDeliveries.getById(claimed!.id))?.status === 'delivered', 5_000, 'delivered');
    expect((await store.webhookDeliveries.attempts(claimed!.id)).map((a) => [a.attempt, a.outcome])).toEqual([[1, 'success']]);
  });

  it('when a dead process still holds leases on a webhook, a restarted dispatcher sends that webhook\'s newer deliveries at once', async () => {
    const { store, workspace, dispatcher } = await startDeliveryWorld({ perWebhookConcurrency: 2 });
    await dispatcher.stop();
    const r = await receiver();
    const hook = await createTestWebhook(store, workspace, { url: r.url });
    await emit(store, workspace.workspaceId);
    await emit(store, workspace.workspaceId);
    const now = new Date();
    const dead = await store.webhookDeliveries.claimDue({
      now: now.toISOString(),
      lease_until: new Date(now.getTime() + 60_000).toISOString(),
      lease_token: 'dead-process',
      rooms: new Map([[hook.id, 2]]),
      limit: 10,
      max_attempts: 4,
    });
    expect(dead).toHaveLength(2);
    for (let i = 0; i < 3; i += 1) await emit(store, workspace.workspaceId);

    const next = createDeliveryDispatcher({ store, logger: silentLogger, config: testDeliveryConfig({ perWebhookConcurrency: 2 }) });
    next.start();
    onCleanup(() => next.stop());
    const requests = await r.waitForRequests(3);
    expect(requests.map((q) => q.headers['webhook-id'])).not.toContain(dead[0]!.id);
    expect(requests.map((q) => q.headers['webhook-id'])).not.toContain(dead[1]!.id);
  });

  it('when the dispatcher stops while a receiver hangs, it gives the lease back and the next start sends the delivery again', async () => {
    const { store, workspace, dispatcher } = await startDeliveryWorld({ shutdownGraceMs: 50, timeoutMs: 10_000, leaseMs: 60_000 });
    let hang = true;
    const r = await receiver(() => (hang ? 'hang' : answer(200)));
    await createTestWebhook(store, workspace, { url: r.url });
    await emit(store, workspace.workspaceId);
    const [first] = await r.waitForRequests(1);
    await dispatcher.stop();
    const id = first!.headers['webhook-id'] as string;
    expect(await store.webhookDeliveries.getById(id)).toMatchObject({ status: 'pending', attempt: 1 });
    expect(await store.webhookDeliveries.attempts(id)).toEqual([]);

    hang = false;
    const next = createDeliveryDispatcher({ store, logger: silentLogger, config: testDeliveryConfig() });
    next.start();
    onCleanup(() => next.stop());
    const [, second] = await r.waitForRequests(2);
    expect(second!.headers['webhook-id']).toBe(id);
    await until(async () => (await store.webhookDeliveries.getById(id))?.status === 'delivered', 5_000, 'delivered');
    expect((await store.webhookDeliveries.attempts(id)).map((a) => [a.attempt, a.outcome])).toEqual([[1, 'success']]);
  });

  // SQLite only: a PostgreSQL store has no database-wide write lock for another process to hold.
  itSqliteOnly('when another process holds the write lock, the dispatcher keeps the event loop free and records the outcome once the lock is released', async () => {
    const { store, workspace } = await startDeliveryWorld();
    const other = new Database((store as SqliteStore).db.name);
    onCleanup(() => {
      other.close();
    });
    // An import in another process takes the lock while the receiver is answering.
    const r = await receiver(() => {
      other.exec('BEGIN IMMEDIATE');
      return answer(200);
    });
    await createTestWebhook(store, workspace, { url: r.url });

    await emit(store, workspace.workspaceId);
    await r.waitForRequests(1);
    const maxLag = await maxEventLoopLag(600);
    expect(await store.webhookDeliveries.countPending()).toBe(1);
    other.exec('COMMIT');
    await until(async () => (await store.webhookDeliveries.countPending()) === 0, 5_000, 'recorded');
    // The default busy timeout (5 s) would have frozen the loop; the dispatcher does not wait for
    // the lock at all. The bound leaves room for a busy machine's pauses and still tells them apart.
    expect(maxLag).toBeLessThan(2_000);
    expect(r.requests).toHaveLength(1);
  });

  // SQLite only: a PostgreSQL store has no database-wide write lock for another process to hold.
  itSqliteOnly('when a delivery comes due while another process holds the write lock, claiming it does not wait for the lock: the event loop stays free, and it is sent once the lock is released', async () => {
    const { store, workspace } = await startDeliveryWorld();
    const r = await receiver(() => answer(200));
    await createTestWebhook(store, workspace, { url: r.url });
    // In one synchronous step, so the dispatcher first meets the due delivery with the lock taken.
    await emit(store, workspace.workspaceId);
    const lock = holdWriteLock((store as SqliteStore).db.name);
    onCleanup(() => lock.release());

    const maxLag = await maxEventLoopLag(600);
    expect(r.requests).toHaveLength(0);
    lock.release();
    await r.waitForRequests(1);
    await until(async () => (await store.webhookDeliveries.countPending()) === 0, 5_000, 'recorded');
    // Waiting for the lock (the connection's 5 s) inside a claim would have frozen the loop.
    expect(maxLag).toBeLessThan(2_000);
  });
});
