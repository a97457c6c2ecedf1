import { SAMPLE_EVENT_DATA } from '../../src/webhooks/delivery/index.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DatabaseBusyError } from '../../src/store/errors.js';
import type { ClaimedDelivery, ClaimInput, WebhookDeliveryStore } from '../../src/store/interfaces/webhook-deliveries.js';
import { enqueueEventOn } from '../../src/store/postgres/outbox.js';
import { createPostgresPool, type PostgresPool } from '../../src/store/postgres/pool.js';
import { inTransaction, rows, value } from '../../src/store/postgres/query.js';
import { createPostgresWebhookDeliveryStore } from '../../src/store/postgres/webhook-deliveries.js';
import { createTestWorkspace, type TestWorkspace } from '../support/accounts.js';
import { copySqliteToPostgres } from '../support/copy-sqlite-to-postgres.js';
import { postgresAvailable } from '../support/postgres.js';
import { storePairForThisTest } from '../support/store-pair.js';
import { until } from '../support/wait.js';
import { createTestWebhook, type TestWebhook } from '../support/webhooks.js';

const EMITTED = Date.UTC(2026, 5, 1, 12, 0);
const at = (seconds: number): string => new Date(EMITTED + seconds * 1_000).toISOString();

interface Outbox {
  pool: PostgresPool;
  deliveries: WebhookDeliveryStore;
  workspace: TestWorkspace;
  hooks: TestWebhook[];
}

/**
 * A PostgreSQL database with a workspace, two webhooks subscribed to every event and `events`
 * events enqueued through the PostgreSQL outbox, each emitted a second after the previous one.
 */
async function outboxWithEvents(events: number): Promise<Outbox> {
  const { sqlite, pool } = await storePairForThisTest();
  const workspace = await createTestWorkspace(sqlite);
  const hooks = [
    await createTestWebhook(sqlite, workspace, { url: 'https://one.example.test/hook' }),
    await createTestWebhook(sqlite, workspace, { url: 'https://two.example.test/hook' }),
  ];
  await copySqliteToPostgres(sqlite.db, pool);
  const deliveries = createPostgresWebhookDeliveryStore(pool);
  for (let i = 0; i < events; i += 1) {
    await deliveries.enqueueEvent({ workspaceId: workspace.workspaceId, type: 'content.status_updated', data: { ...SAMPLE_EVENT_DATA['content.status_updated'], id: `article-${i}` }, at: new Date(at(i)) });
  }
  return { pool, deliveries, workspace, hooks };
}

/** Another instance of the service: its own pool on the same database. */
function secondInstance(pool: PostgresPool): WebhookDeliveryStore {
  const other = createPostgresPool((pool.options as { connectionString: string }).connectionString);
  onTestFinished(() => other.end());
  return createPostgresWebhookDeliveryStore(other);
}

function claim(hooks: TestWebhook[], fields: Partial<ClaimInput> & Pick<ClaimInput, 'lease_token'>): ClaimInput {
  return {
    now: at(3_600),
    lease_until: at(3_660),
    rooms: new Map(hooks.map((h) => [h.id, 8])),
    limit: 10,
    max_attempts: 11,
    ...fields,
  };
}

describe.skipIf(!postgresAvailable())('PostgreSQL delivery claim shared by several instances', () => {
  it('gives each due delivery to one claimer only when two instances claim at once', async () => {
    const { pool, deliveries, hooks } = await outboxWithEvents(60);
    const instances = [deliveries, secondInstance(pool)];
    // Both instances claim in rounds, several claims of each in flight at once, until nothing is left.
    const claimed: Array<ClaimedDelivery & { by: number }> = [];
    for (let round = 0; round < 20; round += 1) {
      const batches = await Promise.all(
        [0, 1, 0, 1, 0, 1].map(async (by, n) => {
          const got = await instances[by]!.claimDue(claim(hooks, { lease_token: `instance-${by}-round-${round}-${n}` }));
          return got.map((d) => ({ ...d, by }));
        }),
      );
      const round_claims = batches.flat();
      claimed.push(...round_claims);
      if (round_claims.length === 0) break;
    }

    const ids = claimed.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(120);
    expect(new Set(claimed.map((d) => d.by))).toEqual(new Set([0, 1]));
    // The lease each delivery holds is the one of the claim that returned it.
    const leases = new Map((await rows<{ id: string; lease_token: string; attempt: number }>(pool, 'SELECT id, lease_token, attempt FROM webhook_deliveries')).map((d) => [d.id, d]));
    for (const d of claimed) expect(leases.get(d.id)).toEqual({ id: d.id, lease_token: d.lease_token, attempt: 1 });
  });

  it('skips the deliveries another claimer has locked, without waiting for it', async () => {
    const { pool, deliveries, hooks } = await outboxWithEvents(5);
    const [first] = hooks;
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      // Another instance in the middle of its claim: it holds the first webhook's three earliest deliveries.
      const held = (await rows<{ id: string }>(holder, `SELECT id FROM webhook_deliveries WHERE webhook_id = ?
        ORDER BY next_attempt_at, id LIMIT 3 FOR UPDATE`, [first!.id])).map((d) => d.id);
      const got = await deliveries.claimDue(claim([first!], { lease_token: 'mine' }));
      expect(got.map((d) => d.id).sort()).toEqual(
        (await rows<{ id: string }>(pool, 'SELECT id FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id', [first!.id]))
          .map((d) => d.id)
          .filter((id) => !held.includes(id)),
      );
      await holder.query('ROLLBACK');
      // Once the other claimer lets go, they are due for the next claim.
      expect((await deliveries.claimDue(claim([first!], { lease_token: 'next' }))).map((d) => d.id).sort()).toEqual([...held].sort());
    } finally {
      holder.release();
    }
  });

  it('claims a delivery again once its lease has expired, under the same attempt number, and not before', async () => {
    const { deliveries, hooks } = await outboxWithEvents(2);
    const first = await deliveries.claimDue(claim(hooks, { lease_token: 'crashed', now: at(100), lease_until: at(160) }));
    expect(first).toHaveLength(4);
    expect(first.every((d) => d.attempt === 1)).toBe(true);
    // While the lease runs, another instance gets nothing; at its last instant, still nothing.
    expect(await deliveries.claimDue(claim(hooks, { lease_token: 'early', now: at(130), lease_until: at(190) }))).toEqual([]);
    expect(await deliveries.claimDue(claim(hooks, { lease_token: 'early', now: at(160), lease_until: at(220) }))).toEqual([]);
    expect(await deliveries.dueWebhookIds(at(160))).toEqual([]);

    const again = await deliveries.claimDue(claim(hooks, { lease_token: 'resumed', now: at(161), lease_until: at(221) }));
    expect(again.map((d) => d.id).sort()).toEqual(first.map((d) => d.id).sort());
    expect(again.every((d) => d.attempt === 1 && d.lease_token === 'resumed')).toBe(true);
    // The first claimer's late outcome is logged but moves nothing: the lease is no longer its own.
    const late = await deliveries.recordAttempt({
      delivery: first[0]!,
      started_at: at(100),
      now: at(170),
      outcome: { http_status: 200, response_body: '', response_time_ms: 5, error: null },
      resolution: { kind: 'delivered' },
    });
    expect(late).toEqual({ recorded: false, webhook_disabled: false, consecutive_failures: null });
    expect(await deliveries.getById(first[0]!.id)).toMatchObject({ status: 'pending', lease_token: 'resumed' });
    expect(await deliveries.attempts(first[0]!.id)).toHaveLength(1);
  });

  it('gives up an outcome when a row it must change stays locked, writing nothing, and records it once free', async () => {
    const { pool, deliveries, hooks } = await outboxWithEvents(1);
    const [delivery] = await deliveries.claimDue(claim([hooks[0]!], { lease_token: 'mine' }));
    const failed = {
      delivery: delivery!,
      started_at: at(3_600),
      now: at(3_601),
      outcome: { http_status: 500, response_body: 'down', response_time_ms: 7, error: 'HTTP 500' },
      resolution: { kind: 'failed', disable_after: 10 },
    } as const;
    const holder = await pool.connect();
    try {
      // The owner is editing the webhook: its row is locked until that transaction ends.
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM webhooks WHERE id = $1 FOR UPDATE', [hooks[0]!.id]);
      await expect(deliveries.recordAttempt(failed)).rejects.toBeInstanceOf(DatabaseBusyError);
      expect(await deliveries.getById(delivery!.id)).toMatchObject({ status: 'pending', lease_token: 'mine' });
      expect(await deliveries.attempts(delivery!.id)).toEqual([]);
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
    expect(await deliveries.recordAttempt(failed)).toEqual({ recorded: true, webhook_disabled: false, consecutive_failures: 1 });
    expect(await deliveries.getById(delivery!.id)).toMatchObject({ status: 'failed', lease_token: null, http_status: 500 });
  });

  it('numbers an event after the events of a transaction still open, which it waits for', async () => {
    const { pool, deliveries, workspace } = await outboxWithEvents(0);
    const event = (id: string) => ({ workspaceId: workspace.workspaceId, type: 'topic.status_updated' as const, data: { ...SAMPLE_EVENT_DATA['topic.status_updated'], id }, at: new Date(at(0)) });
    let waiting: Promise<string[]> | undefined;
    // An import's transaction writes one event, then another after a second writer has started.
    const importIds = await inTransaction(pool, async (client) => {
      const ids = [await enqueueEventOn(client, event('import-1'))];
      const pid = await value<number>(client, 'SELECT pg_backend_pid()');
      // Held, not awaited: it must wait for this transaction's lock, so it settles after the COMMIT.
      waiting = Promise.all([deliveries.enqueueEvent(event('alone'))]);
      await until(
        async () => (await value<number>(pool, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid <> ?", [pid])) === 1,
        10_000,
        'the second writer to wait for the event feed lock',
      );
      ids.push(await enqueueEventOn(client, event('import-2')));
      return ids;
    });
    const [alone] = await waiting!;
    expect((await rows<{ event_id: string }>(pool, 'SELECT event_id FROM event_feed ORDER BY seq')).map((r) => r.event_id)).toEqual([...importIds, alone]);
    // Each of the three reached both webhooks.
    expect(await value(pool, 'SELECT count(*) FROM webhook_deliveries')).toBe(6);
  });
});
