import { SAMPLE_EVENT_DATA } from '../../../src/webhooks/delivery/index.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import pg from 'pg';
import { importLines } from '../../../src/import/import-ndjson.js';
import { openPostgresStore } from '../../../src/store/index.js';
import { topicLine } from '../../support/content-records.js';
import { createPostgresPool } from '../../../src/store/postgres/pool.js';
import { createPostgresWebhookDeliveryStore } from '../../../src/store/postgres/webhook-deliveries.js';
import { createDeliveryDispatcher } from '../../../src/webhooks/delivery/index.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { copySqliteToPostgres } from '../../support/copy-sqlite-to-postgres.js';
import { postgresAvailable } from '../../support/postgres.js';
import { storePairForThisTest } from '../../support/store-pair.js';
import { until } from '../../support/wait.js';
import { answer, startReceiver } from '../../support/webhook-receiver.js';
import { createTestWebhook, silentLogger, testDeliveryConfig } from '../../support/webhooks.js';

/** A workspace with one webhook to a loopback receiver answering 200, in a new PostgreSQL database; its pool. */
async function webhookOverPostgres() {
  const receiver = await startReceiver(() => answer(200, 'ok'));
  onTestFinished(receiver.close);
  const { sqlite, pool } = await storePairForThisTest();
  const workspace = await createTestWorkspace(sqlite);
  await createTestWebhook(sqlite, workspace, { url: receiver.url });
  await copySqliteToPostgres(sqlite.db, pool);
  return { receiver, workspace, pool };
}

describe.skipIf(!postgresAvailable())('webhook delivery: two instances over one PostgreSQL outbox', () => {
  it('sends every delivery once, whichever instance claims it', async () => {
    const { receiver, workspace, pool } = await webhookOverPostgres();

    const outbox = createPostgresWebhookDeliveryStore(pool);
    const events = 40;
    for (let i = 0; i < events; i += 1) {
      await outbox.enqueueEvent({ workspaceId: workspace.workspaceId, type: 'content.status_updated', data: { ...SAMPLE_EVENT_DATA['content.status_updated'], id: `article-${i}` } });
    }
    // Two instances of the service: a pool and a dispatcher each, polling the same outbox.
    const secondPool = createPostgresPool((pool.options as { connectionString: string }).connectionString);
    onTestFinished(() => secondPool.end());
    const config = testDeliveryConfig({ perWebhookConcurrency: 3, pollIntervalMs: 5 });
    const dispatchers = [outbox, createPostgresWebhookDeliveryStore(secondPool)].map((webhookDeliveries) =>
      createDeliveryDispatcher({ store: { webhookDeliveries }, logger: silentLogger, config }));
    for (const dispatcher of dispatchers) {
      dispatcher.start();
      onTestFinished(() => dispatcher.stop());
    }

    await until(async () => (await outbox.countPending()) === 0, 20_000, 'every delivery to be delivered');
    for (const dispatcher of dispatchers) await dispatcher.stop();
    const ids = receiver.requests.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(events);
    expect(new Set(ids).size).toBe(events);
    for (const id of ids) {
      expect((await outbox.attempts(id as string)).map((a) => [a.attempt, a.outcome])).toEqual([[1, 'success']]);
    }
  });

  it('an event enqueued through one instance is delivered by another at once, long before its next poll', async () => {
    const { receiver, workspace, pool } = await webhookOverPostgres();
    const url = (pool.options as { connectionString: string }).connectionString;

    // Instance B: its own pool and a delivery loop that polls once a minute. Its looks for due
    // deliveries are counted: one at the start, one once its LISTEN is in place (for what was
    // committed before), then none until the poll a minute later, unless something wakes it.
    const secondPool = createPostgresPool(url);
    onTestFinished(() => secondPool.end());
    const outboxB = createPostgresWebhookDeliveryStore(secondPool);
    let looked = 0;
    const dispatcher = createDeliveryDispatcher({
      store: { webhookDeliveries: { ...outboxB, dueWebhookIds: async (now) => {
        const due = await outboxB.dueWebhookIds(now);
        looked += 1;
        return due;
      } } },
      logger: silentLogger,
      config: testDeliveryConfig({ pollIntervalMs: 60_000 }),
    });
    dispatcher.start();
    onTestFinished(() => dispatcher.stop());
    await until(() => looked === 2, 10_000, 'instance B to listen and look once more');
    expect((await pool.query<{ n: number }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN webhook_outbox'",
    )).rows[0]!.n).toBe(1);

    // Instance A: enqueues, and has no delivery loop.
    const eventId = await createPostgresWebhookDeliveryStore(pool).enqueueEvent({
      workspaceId: workspace.workspaceId, type: 'content.status_updated', data: SAMPLE_EVENT_DATA['content.status_updated'],
    });
    await until(() => receiver.requests.length === 1, 10_000, 'B to deliver the event, well before its 60-second poll');
    expect(JSON.parse(receiver.requests[0]!.rawBody).data).toEqual(SAMPLE_EVENT_DATA['content.status_updated']);
    expect(eventId).toEqual(expect.any(String));
  });

  it('a rolled-back import wakes nobody; a committed one wakes every listener once', async () => {
    const { workspace, pool } = await webhookOverPostgres();
    const url = (pool.options as { connectionString: string }).connectionString;
    const store = await openPostgresStore(url);
    onTestFinished(() => store.close());
    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    onTestFinished(() => listener.end());
    const woken: string[] = [];
    listener.on('notification', (n) => woken.push(n.channel));
    await listener.query('LISTEN webhook_outbox');

    const completed = () => topicLine({ stage: 'COMPLETED' }).line;
    await expect(importLines(store, workspace.workspaceId, [completed(), completed(), '{"type":"topic"}'])).rejects.toThrow('line 3');
    await importLines(store, workspace.workspaceId, [completed(), completed()]);
    await until(() => woken.length > 0, 10_000, 'the committed import to notify');
    // Notifications arrive in commit order, before the answer to a later statement of this session.
    await listener.query('SELECT 1');
    expect(woken).toEqual(['webhook_outbox']);
    expect(await store.webhookDeliveries.countPending()).toBe(2);
  });
});
