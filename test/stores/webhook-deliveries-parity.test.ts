import { SAMPLE_EVENT_DATA } from '../../src/webhooks/delivery/index.js';
import { describe, expect, it } from 'vitest';
import type { EventType } from '../../generated/events.js';
import { importLines } from '../../src/import/import-ndjson.js';
import type {
  AttemptOutcome, AttemptResolution, ClaimedDelivery, ClaimInput, DeliveryRow, DeliveryStatus, WebhookDeliveryStore,
} from '../../src/store/interfaces/webhook-deliveries.js';
import { createPostgresWebhookDeliveryStore } from '../../src/store/postgres/webhook-deliveries.js';
import { createPostgresWebhookStore } from '../../src/store/postgres/webhooks.js';
import { rows as pgRows } from '../../src/store/postgres/query.js';
import { createTestWorkspace, type TestWorkspace } from '../support/accounts.js';
import { articleLine, topicLine } from '../support/content-records.js';
import { copySqliteToPostgres } from '../support/copy-sqlite-to-postgres.js';
import { postgresAvailable } from '../support/postgres.js';
import { expectSameTable, sameAnswer, storePairForThisTest, type StorePair } from '../support/store-pair.js';
import { ALL_EVENT_TYPES, createTestWebhook, type TestWebhook } from '../support/webhooks.js';
import { everyPage } from '../support/keyset-pages.js';

type Stores = readonly [WebhookDeliveryStore, WebhookDeliveryStore];

const STATUSES: readonly (DeliveryStatus | null)[] = [null, 'pending', 'delivered', 'recovered', 'failed'];
const T = (minute: number): string => new Date(Date.UTC(2026, 4, 1, 9, minute)).toISOString();
const FAR_FUTURE = '2100-01-01T00:00:00.000Z';

const ok: AttemptOutcome = { http_status: 200, response_body: 'ok ✓', response_time_ms: 12, error: null };
const refused: AttemptOutcome = { http_status: null, response_body: null, response_time_ms: 2_147_483_648_123, error: 'connect ECONNREFUSED' };
const serverError: AttemptOutcome = { http_status: 503, response_body: 'x'.repeat(2048), response_time_ms: 0, error: 'HTTP 503' };

/** When the claims of the write test run: every delivery is due by then, except the fixture's unexpired lease. */
const CLAIM_TIME = '2099-01-01T00:00:00.000Z';

function claimInput(fields: Partial<ClaimInput> & Pick<ClaimInput, 'rooms'>): ClaimInput {
  return { now: CLAIM_TIME, lease_until: '2099-01-01T00:01:00.000Z', lease_token: 'lease-1', limit: 100, max_attempts: 4, ...fields };
}

/** Claims in id order: the order of the claimed rows is the database's (see the claim's statement). */
function byId(claimed: ClaimedDelivery[]): ClaimedDelivery[] {
  return [...claimed].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

/** Every page of a deliveries list, `limit` at a time, as the handler walks it. */
function allPages(store: WebhookDeliveryStore, filter: { workspace_id: string; webhook_id: string; event_type: string | null; status: DeliveryStatus | null }, limit: number): Promise<DeliveryRow[][]> {
  return everyPage<DeliveryRow, readonly [string, string]>((pageLimit, after) => store.list({ ...filter, after: after ?? null, limit: pageLimit }), (last) => [last.created_at, last.id], limit);
}

interface Filled {
  pair: StorePair;
  stores: Stores;
  a: TestWorkspace;
  b: TestWorkspace;
  hooks: TestWebhook[];
  other: TestWebhook;
}

/**
 * Deliveries in every state, written through SQLite (the import's outbox, events enqueued at the
 * same instant, claims, every kind of outcome, a release, redelivery and recovery), then copied row
 * by row into PostgreSQL.
 */
async function filledPair(): Promise<Filled> {
  const pair = await storePairForThisTest();
  const sqlite = pair.sqlite;
  const a = await createTestWorkspace(sqlite);
  const b = await createTestWorkspace(sqlite);
  const url = 'https://hooks.example.test/receive';
  const hooks = [
    await createTestWebhook(sqlite, a, { url }),
    await createTestWebhook(sqlite, a, { url, events: ['content.status_updated'] }),
    await createTestWebhook(sqlite, a, { url, enabled: false }),
  ];
  await createTestWebhook(sqlite, a, { url, events: [] });
  const other = await createTestWebhook(sqlite, b, { url });

  const topic = topicLine();
  await importLines(sqlite, a.workspaceId, [topic.line], { events: false });
  await importLines(sqlite, a.workspaceId, [
    topicLine({ stage: 'COMPLETED' }).line,
    ...Array.from({ length: 4 }, () => articleLine({ status: 'PUBLISHED' }).line),
  ]);
  // Ties: several events at one instant, so their deliveries share created_at and order by id.
  const deliveries = sqlite.webhookDeliveries;
  const tied = [[1, 'content.status_updated'], [1, 'content.status_updated'], [1, 'iq.status_updated'], [2, 'agent_task.status_updated'], [3, 'content.status_updated']] as const;
  for (const [i, [minute, type]] of tied.entries()) {
    await deliveries.enqueueEvent({ workspaceId: a.workspaceId, type, data: { ...SAMPLE_EVENT_DATA[type], id: `record-${i}`, title: 'Ünïcode 🚀' }, at: new Date(T(minute)) });
  }
  await deliveries.enqueueEvent({ workspaceId: b.workspaceId, type: 'topic.status_updated', data: { ...SAMPLE_EVENT_DATA['topic.status_updated'], id: 'b' }, at: new Date(T(1)) });

  // Claim the first webhook's deliveries and end them every way there is.
  const claimed = byId(await deliveries.claimDue(claimInput({ now: FAR_FUTURE, lease_until: '2100-01-01T00:01:00.000Z', rooms: new Map([[hooks[0]!.id, 7]]) })));
  expect(claimed).toHaveLength(7);
  const resolutions: Array<[AttemptResolution, AttemptOutcome]> = [
    [{ kind: 'delivered' }, ok],
    [{ kind: 'delivered' }, ok],
    [{ kind: 'retry', next_attempt_at: T(40) }, serverError],
    [{ kind: 'failed', disable_after: 10 }, refused],
    [{ kind: 'failed', disable_after: 10 }, serverError],
  ];
  for (const [i, [resolution, outcome]] of resolutions.entries()) {
    await deliveries.recordAttempt({ delivery: claimed[i]!, started_at: T(20 + i), now: T(21 + i), outcome, resolution });
  }
  await deliveries.release(claimed[5]!.id, claimed[5]!.lease_token, new Date(T(29)));
  // claimed[6] keeps its lease. A delivered one and a failed one are queued again.
  await deliveries.requeue({ workspace_id: a.workspaceId, webhook_id: hooks[0]!.id, id: claimed[0]!.id, now: T(25) });
  await deliveries.requeue({ workspace_id: a.workspaceId, webhook_id: hooks[0]!.id, id: claimed[3]!.id, now: T(25) });

  await copySqliteToPostgres(sqlite.db, pair.pool);
  return { pair, stores: [deliveries, createPostgresWebhookDeliveryStore(pair.pool)], a, b, hooks, other };
}

/** Every delivery id of the copied data, in a fixed order. */
function deliveryIds(pair: StorePair): string[] {
  return pair.sqlite.db.prepare('SELECT id FROM webhook_deliveries ORDER BY id').pluck().all() as string[];
}

describe.skipIf(!postgresAvailable())('PostgreSQL delivery store, against SQLite over the same rows', () => {
  it('lists every webhook\'s deliveries the same, by every filter, at every page size', async () => {
    const { stores, a, b, hooks, other } = await filledPair();
    const eventTypes: readonly (string | null)[] = [null, ...ALL_EVENT_TYPES, 'no.such_event'];
    for (const webhook of [...hooks, other]) {
      const workspace = webhook === other ? b : a;
      for (const event_type of eventTypes) {
        for (const status of STATUSES) {
          const filter = { workspace_id: workspace.workspaceId, webhook_id: webhook.id, event_type, status };
          const whole = await sameAnswer(stores, (s) => s.list({ ...filter, after: null, limit: 100 }), `list ${JSON.stringify(filter)}`);
          // Paging is the same statement with a position: walked on the unfiltered list and one filter of each kind.
          if (!(event_type === null || status === null) || (event_type !== null && event_type !== 'content.status_updated') || (status !== null && status !== 'pending')) continue;
          for (const limit of [1, 2, 3]) {
            const pages = await sameAnswer(stores, (s) => allPages(s, filter, limit), `pages of ${limit}`);
            expect(pages.flat()).toStrictEqual(whole);
          }
        }
      }
    }
    // The first webhook's list holds every status, ties on created_at, and the same event on two webhooks.
    const statuses = (await stores[0].list({ workspace_id: a.workspaceId, webhook_id: hooks[0]!.id, event_type: null, status: null, after: null, limit: 100 })).map((d) => d.status);
    expect(new Set(statuses)).toEqual(new Set(['pending', 'delivered', 'failed']));
    // Another workspace's webhook, and a position past the end.
    expect(await sameAnswer(stores, (s) => s.list({ workspace_id: b.workspaceId, webhook_id: hooks[0]!.id, event_type: null, status: null, after: null, limit: 10 }))).toEqual([]);
    expect(await sameAnswer(stores, (s) => s.list({ workspace_id: a.workspaceId, webhook_id: hooks[0]!.id, event_type: null, status: null, after: ['0000', ''], limit: 10 }))).toEqual([]);
  });

  it('reads each delivery and its attempts the same, and nothing for another webhook or workspace', async () => {
    const { pair, stores, a, b, hooks } = await filledPair();
    for (const id of deliveryIds(pair)) {
      const delivery = await sameAnswer(stores, (s) => s.getById(id));
      expect(delivery?.id).toBe(id);
      await sameAnswer(stores, (s) => s.get(delivery!.workspace_id, delivery!.webhook_id, id));
      await sameAnswer(stores, (s) => s.attempts(id));
      expect(await sameAnswer(stores, (s) => s.get(b.workspaceId === delivery!.workspace_id ? a.workspaceId : b.workspaceId, delivery!.webhook_id, id))).toBeUndefined();
      expect(await sameAnswer(stores, (s) => s.get(delivery!.workspace_id, hooks[2]!.id === delivery!.webhook_id ? hooks[1]!.id : hooks[2]!.id, id))).toBeUndefined();
    }
    expect(await sameAnswer(stores, (s) => s.getById('no-such-delivery'))).toBeUndefined();
    expect(await sameAnswer(stores, (s) => s.attempts('no-such-delivery'))).toEqual([]);
    expect(await sameAnswer(stores, (s) => s.countPending())).toBeGreaterThan(0);
  });

  it('finds the same webhooks with due work at every instant', async () => {
    const { stores, hooks, other } = await filledPair();
    // Before anything was emitted; at the instants of the ties; with the lease still held; far on.
    for (const now of ['2000-01-01T00:00:00.000Z', T(1), T(2), T(30), T(45), FAR_FUTURE, '2100-01-01T00:00:30.000Z', '2100-01-01T00:02:00.000Z']) {
      const [fromSqlite, fromPostgres] = [await stores[0].dueWebhookIds(now), await stores[1].dueWebhookIds(now)];
      // SQLite answers in its file's row order, PostgreSQL by id; the dispatcher shuffles them.
      expect([...fromPostgres].sort(), now).toStrictEqual([...fromSqlite].sort());
    }
    const due = await stores[1].dueWebhookIds(FAR_FUTURE);
    expect(due).toContain(other.id);
    expect(due).not.toContain(hooks[2]!.id);
  });

  it('claims, records, releases, redelivers and recovers the same way, leaving the same rows', async () => {
    const { pair, stores, a, hooks } = await filledPair();
    const rooms = new Map([[hooks[1]!.id, 2], [hooks[0]!.id, 10], [hooks[2]!.id, 5]]);
    const expectSameRows = async (): Promise<void> => {
      await expectSameTable(pair, 'webhook_deliveries', 'id');
      await expectSameTable(pair, 'webhook_delivery_attempts', 'id');
      await expectSameTable(pair, 'webhooks', 'id');
    };
    // Nothing to claim: no room, no limit, nothing due yet.
    expect(await sameAnswer(stores, (s) => s.claimDue(claimInput({ rooms: new Map() })))).toEqual([]);
    expect(await sameAnswer(stores, (s) => s.claimDue(claimInput({ rooms, limit: 0 })))).toEqual([]);
    expect(await sameAnswer(stores, (s) => s.claimDue(claimInput({ rooms, now: '2000-01-01T00:00:00.000Z' })))).toEqual([]);
    // A claim bounded by the limit, then one bounded by each webhook's room; the disabled webhook gives none.
    const first = await sameAnswer(stores, async (s) => byId(await s.claimDue(claimInput({ rooms, limit: 3, lease_token: 'lease-a' }))));
    expect(first).toHaveLength(3);
    const second = await sameAnswer(stores, async (s) => byId(await s.claimDue(claimInput({ rooms, lease_token: 'lease-b', max_attempts: 2 }))));
    expect(second.length).toBeGreaterThan(3);
    expect(second.some((d) => d.webhook_id === hooks[2]!.id)).toBe(false);
    await expectSameRows();

    // Every outcome; the webhook counts failures and is disabled at the limit.
    // Webhook by webhook, so each webhook meets the same run of outcomes whatever ids the deliveries drew.
    const hookOrder = (d: { webhook_id: string }) => hooks.findIndex((hook) => hook.id === d.webhook_id);
    const claimed = [...first, ...second].sort((x, y) => hookOrder(x) - hookOrder(y) || (x.id < y.id ? -1 : 1));
    const outcomes: Array<[AttemptResolution, AttemptOutcome]> = [
      [{ kind: 'delivered' }, ok],
      [{ kind: 'retry', next_attempt_at: T(50) }, refused],
      [{ kind: 'failed', disable_after: 2 }, serverError],
      [{ kind: 'failed', disable_after: 2 }, refused],
      [{ kind: 'failed', disable_after: 2 }, refused],
    ];
    const answers = [];
    for (const [i, delivery] of claimed.entries()) {
      const [resolution, outcome] = outcomes[i % outcomes.length]!;
      answers.push(await sameAnswer(stores, (s) => s.recordAttempt({ delivery, started_at: T(31), now: T(32), outcome, resolution }), `outcome ${i}`));
    }
    expect(answers.filter((answer) => answer.webhook_disabled)).toHaveLength(2);
    // A lease lost to another claimer (wrong token), and a delivery that no longer exists.
    const stale = { ...claimed[0]!, lease_token: 'not-mine' };
    await sameAnswer(stores, (s) => s.recordAttempt({ delivery: stale, started_at: T(33), now: T(34), outcome: ok, resolution: { kind: 'delivered' } }));
    const gone = { ...claimed[0]!, id: 'no-such-delivery' };
    await sameAnswer(stores, (s) => s.recordAttempt({ delivery: gone, started_at: T(33), now: T(34), outcome: ok, resolution: { kind: 'delivered' } }));
    await expectSameRows();

    // Releases (own token, and another's), redeliveries of every status, recovery.
    const pending = (await stores[0].list({ workspace_id: a.workspaceId, webhook_id: hooks[0]!.id, event_type: null, status: 'pending', after: null, limit: 100 }))
      .filter((d) => d.lease_token !== null);
    expect(pending).toHaveLength(1);
    for (const d of pending) {
      await sameAnswer(stores, (s) => s.release(d.id, 'not-mine', new Date(T(35))));
      await sameAnswer(stores, (s) => s.release(d.id, d.lease_token!, new Date(T(35))));
    }
    for (const id of deliveryIds(pair).slice(0, 12)) {
      const d = (await stores[0].getById(id))!;
      await sameAnswer(stores, (s) => s.requeue({ workspace_id: d.workspace_id, webhook_id: d.webhook_id, id, now: T(36) }), `requeue of a ${d.status} delivery`);
    }
    await sameAnswer(stores, (s) => s.requeue({ workspace_id: a.workspaceId, webhook_id: hooks[0]!.id, id: 'no-such-delivery', now: T(36) }));
    for (const webhook of hooks) {
      for (const since of ['2000-01-01T00:00:00.000Z', T(2), FAR_FUTURE]) {
        await sameAnswer(stores, (s) => s.recoverFailedSince({ workspace_id: a.workspaceId, webhook_id: webhook.id, since, now: T(37) }), `recovery since ${since}`);
      }
    }
    await sameAnswer(stores, (s) => s.countPending());
    await expectSameRows();

    // Released attempts resume under their numbers once the webhooks the failures disabled are enabled again.
    expect((await stores[1].dueWebhookIds(FAR_FUTURE)).filter((id) => hooks.some((h) => h.id === id))).toEqual([]);
    for (const webhooks of [pair.sqlite.webhooks, createPostgresWebhookStore(pair.pool)]) {
      for (const webhook of hooks) await webhooks.enable(a.workspaceId, webhook.id, T(38));
    }
    const resumed = await sameAnswer(stores, async (s) => byId(await s.claimDue(claimInput({ rooms, now: FAR_FUTURE, lease_until: '2100-01-02T00:00:00.000Z', lease_token: 'lease-c', max_attempts: 3 }))));
    expect(resumed.find((d) => d.id === pending[0]!.id)).toMatchObject({ attempt: pending[0]!.attempt, lease_token: 'lease-c' });
    await expectSameRows();
  });

  it('writes the same event, feed entry and deliveries for each event', async () => {
    const { pair, stores, a, b } = await filledPair();
    const types: EventType[] = ['content.status_updated', 'topic.status_updated', 'iq.status_updated', 'sitemap_url.status_updated', 'research_batch.status_updated'];
    for (const [i, type] of types.entries()) {
      for (const workspace of [a, b]) {
        const event = { workspaceId: workspace.workspaceId, type, data: { ...SAMPLE_EVENT_DATA[type], id: `r-${i}`, title: 'ü 2.5 🚀' }, at: new Date(T(40 + i)) };
        const ids = [await stores[0].enqueueEvent(event), await stores[1].enqueueEvent(event)];
        expect(ids[1]).not.toBe(ids[0]);
      }
    }
    // Without `at`, the event takes the time it is written.
    const before = new Date().toISOString();
    const id = await stores[1].enqueueEvent({ workspaceId: a.workspaceId, type: 'iq.status_updated', data: SAMPLE_EVENT_DATA['iq.status_updated'] });
    const [written] = await pgRows<{ created_at: string }>(pair.pool, 'SELECT created_at FROM webhook_events WHERE id = ?', [id]);
    expect(written!.created_at >= before).toBe(true);
    await pair.pool.query('DELETE FROM webhook_events WHERE id = $1', [id]);

    // Ids are random on each side: the rows are compared with each id replaced by its place.
    const dump = async (query: (sql: string) => Promise<Record<string, unknown>[]>): Promise<unknown> => {
      const events = await query('SELECT * FROM webhook_events ORDER BY created_at, workspace_id, event_type, id');
      const place = new Map(events.map((e, n) => [e.id as string, `event ${n}`]));
      const named = (r: Record<string, unknown>): Record<string, unknown> => ({ ...r, ...('event_id' in r ? { event_id: place.get(r.event_id as string) } : {}) });
      return {
        events: events.map((e) => ({ ...e, id: place.get(e.id as string) })),
        feed: (await query('SELECT * FROM event_feed ORDER BY seq')).map(named),
        deliveries: (await query('SELECT * FROM webhook_deliveries ORDER BY created_at, webhook_id, event_type, payload, id'))
          .map((d) => ({ ...named(d), id: typeof d.id })),
      };
    };
    const fromSqlite = await dump(async (sql) => pair.sqlite.db.prepare(sql).all() as Record<string, unknown>[]);
    const fromPostgres = await dump((sql) => pgRows(pair.pool, sql));
    expect(fromPostgres).toStrictEqual(fromSqlite);
  });
});
