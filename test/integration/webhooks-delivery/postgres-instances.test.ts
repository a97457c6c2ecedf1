import { SAMPLE_EVENT_DATA } from '../../../src/webhooks/delivery/index.js';
import { describe, expect, it, onTestFinished } from 'vitest';
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

describe.skipIf(!postgresAvailable())('webhook delivery: two instances over one PostgreSQL outbox', () => {
  it('sends every delivery once, whichever instance claims it', async () => {
    const receiver = await startReceiver(() => answer(200, 'ok'));
    onTestFinished(receiver.close);
    const { sqlite, pool } = await storePairForThisTest();
    const workspace = await createTestWorkspace(sqlite);
    await createTestWebhook(sqlite, workspace, { url: receiver.url });
    await copySqliteToPostgres(sqlite.db, pool);

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
});
