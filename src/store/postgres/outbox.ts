import { randomUUID } from 'node:crypto';
import type { OutboxEvent } from '../interfaces/webhook-deliveries.js';
import { eventEnvelope, serializeEnvelope } from '../event-envelopes.js';
import { feedOf } from '../feed-of-event-type.js';
import { DEFAULT_RETRY_SCHEDULE, parseDurationList } from '../../config.js';
import { rows, run, type Queryable } from './query.js';
import { OUTBOX_CHANNEL } from './outbox-listener.js';

// Shown until the dispatcher's first claim sets the figure of its configured schedule (as ../sqlite/outbox.ts).
const DEFAULT_MAX_ATTEMPTS = parseDurationList(DEFAULT_RETRY_SCHEDULE, 'default schedule').length + 1;

const SQL = {
  insertEvents: `INSERT INTO webhook_events (id, workspace_id, event_type, data, created_at)
    SELECT * FROM unnest(@ids::text[], @workspace_ids::text[], @event_types::text[], @data::text[], @created_at::text[])`,
  // `events` is JSON kept as text: read as a JSON array here, where SQLite walks it with json_each.
  subscribedWebhooks: `SELECT DISTINCT w.id, e.value AS event_type FROM webhooks w, json_array_elements_text(w.events::json) AS e(value)
    WHERE w.workspace_id = ? AND w.enabled = 1 AND e.value = ANY(CAST(? AS TEXT[]))
    ORDER BY w.id`,
  // One statement for all the deliveries (a row per element of the arrays), where SQLite runs one per webhook.
  insertDeliveries: `INSERT INTO webhook_deliveries (id, event_id, webhook_id, workspace_id, event_type, payload, max_attempts, next_attempt_at, created_at)
    SELECT d.id, d.event_id, d.webhook_id, d.workspace_id, d.event_type, d.payload, @max_attempts, d.created_at, d.created_at
    FROM unnest(@ids::text[], @event_ids::text[], @webhook_ids::text[], @workspace_ids::text[], @event_types::text[], @payloads::text[], @created_at::text[])
      WITH ORDINALITY AS d(id, event_id, webhook_id, workspace_id, event_type, payload, created_at, n)
    ORDER BY d.n`,
  // Its trigger (migration 044) takes the feed's lock until this transaction ends, so numbers follow
  // commit order; within the statement they follow the events' order.
  insertFeedEntries: `INSERT INTO event_feed (event_id, workspace_id, feed, event_type, created_at)
    SELECT f.event_id, f.workspace_id, f.feed, f.event_type, f.created_at
    FROM unnest(@event_ids::text[], @workspace_ids::text[], @feeds::text[], @event_types::text[], @created_at::text[])
      WITH ORDINALITY AS f(event_id, workspace_id, feed, event_type, created_at, n)
    ORDER BY f.n`,
  // Sent at commit, once per transaction however often it is called: a rolled-back import wakes nobody.
  notifyDeliveries: `SELECT pg_notify('${OUTBOX_CHANNEL}', '')`,
};

/**
 * Writes events to the outbox on `client`, which must be inside the transaction that changes the
 * records (the import's, or one of its own), in their order: each event, one pending delivery per
 * enabled webhook of its workspace subscribed to its type, and its place in its read feed (whether
 * or not a webhook subscribes, so the feed is complete), all committing together or not at all, in
 * a fixed number of statements however many events there are. Resolves the event ids.
 *
 * The feed entries go last: they take the lock that orders the feed's numbers by commit (044), and
 * from then on every other transaction writing events waits for this one to end.
 */
export async function enqueueEventsOn(client: Queryable, events: readonly OutboxEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const ids = events.map(() => randomUUID());
  const at = events.map((event) => (event.at ?? new Date()).toISOString());
  const common = { workspace_ids: events.map((e) => e.workspaceId), event_types: events.map((e) => e.type), created_at: at };
  await run(client, SQL.insertEvents, { ids, ...common, data: events.map((e) => JSON.stringify(e.data)) });
  const subscribed = new Map<string, string[]>();
  for (const workspaceId of new Set(common.workspace_ids)) {
    const types = [...new Set(events.filter((e) => e.workspaceId === workspaceId).map((e) => e.type))];
    for (const w of await rows<{ id: string; event_type: string }>(client, SQL.subscribedWebhooks, [workspaceId, types])) {
      const key = `${workspaceId} ${w.event_type}`;
      subscribed.set(key, [...(subscribed.get(key) ?? []), w.id]);
    }
  }
  const deliveries = events.flatMap((event, i) =>
    (subscribed.get(`${event.workspaceId} ${event.type}`) ?? []).map((webhookId) => ({ i, webhookId })),
  );
  if (deliveries.length > 0) {
    const payloads = events.map((event, i) =>
      serializeEnvelope(eventEnvelope(event.type, { timestamp: at[i]!, workspace_id: event.workspaceId, is_test: false }, event.data)),
    );
    await run(client, SQL.insertDeliveries, {
      ids: deliveries.map(() => randomUUID()),
      event_ids: deliveries.map((d) => ids[d.i]),
      webhook_ids: deliveries.map((d) => d.webhookId),
      workspace_ids: deliveries.map((d) => events[d.i]!.workspaceId),
      event_types: deliveries.map((d) => events[d.i]!.type),
      payloads: deliveries.map((d) => payloads[d.i]),
      created_at: deliveries.map((d) => at[d.i]),
      max_attempts: DEFAULT_MAX_ATTEMPTS,
    });
    // Delivery loops of every instance (`outbox-listener.ts`) claim them now rather than at their next poll.
    await run(client, SQL.notifyDeliveries);
  }
  await run(client, SQL.insertFeedEntries, { event_ids: ids, ...common, feeds: events.map((e) => feedOf(e.type)) });
  return ids;
}

/** One event (`enqueueEventsOn`); resolves its id. */
export async function enqueueEventOn(client: Queryable, event: OutboxEvent): Promise<string> {
  return (await enqueueEventsOn(client, [event]))[0]!;
}
