import { randomUUID } from 'node:crypto';
import type { OutboxEvent } from '../interfaces/webhook-deliveries.js';
import { serializeEnvelope } from '../delivery-envelope.js';
import { feedOf } from '../feed-of-event-type.js';
import { DEFAULT_RETRY_SCHEDULE, parseDurationList } from '../../config.js';
import { rows, run, type Queryable } from './query.js';

// Shown until the dispatcher's first claim sets the figure of its configured schedule (as ../sqlite/outbox.ts).
const DEFAULT_MAX_ATTEMPTS = parseDurationList(DEFAULT_RETRY_SCHEDULE, 'default schedule').length + 1;

const SQL = {
  insertEvent: 'INSERT INTO webhook_events (id, workspace_id, event_type, data, created_at) VALUES (?, ?, ?, ?, ?)',
  // `events` is JSON kept as text: read as a JSON array here, where SQLite walks it with json_each.
  subscribedWebhooks: `SELECT w.id FROM webhooks w
    WHERE w.workspace_id = ? AND w.enabled = 1
      AND EXISTS (SELECT 1 FROM json_array_elements_text(w.events::json) AS e(value) WHERE e.value = ?)
    ORDER BY w.id`,
  // One statement for all the event's deliveries (a row per element of the two arrays), where SQLite runs one per webhook.
  insertDeliveries: `INSERT INTO webhook_deliveries (id, event_id, webhook_id, workspace_id, event_type, payload, max_attempts, next_attempt_at, created_at)
    SELECT d.id, @event_id, d.webhook_id, @workspace_id, @event_type, @payload, @max_attempts, @created_at, @created_at
    FROM unnest(@ids::text[], @webhook_ids::text[]) AS d(id, webhook_id)
    ORDER BY d.webhook_id`,
  // Its trigger (migration 044) takes the feed's lock until this transaction ends, so numbers follow commit order.
  insertFeedEntry: 'INSERT INTO event_feed (event_id, workspace_id, feed, event_type, created_at) VALUES (?, ?, ?, ?, ?)',
};

/**
 * Writes an event to the outbox on `client`, which must be inside the transaction that changes the
 * record (the import's, or one of its own): the event, one pending delivery per enabled webhook of
 * the workspace subscribed to its type, and its place in its read feed (whether or not a webhook
 * subscribes, so the feed is complete) commit together or not at all. Resolves the event id.
 *
 * The feed entry goes last: it takes the lock that orders the feed's numbers by commit (044), and
 * from then on every other transaction writing events waits for this one to end.
 */
export async function enqueueEventOn(client: Queryable, event: OutboxEvent): Promise<string> {
  const id = randomUUID();
  const at = (event.at ?? new Date()).toISOString();
  await run(client, SQL.insertEvent, [id, event.workspaceId, event.type, JSON.stringify(event.data), at]);
  const webhooks = (await rows<{ id: string }>(client, SQL.subscribedWebhooks, [event.workspaceId, event.type])).map((w) => w.id);
  if (webhooks.length > 0) {
    await run(client, SQL.insertDeliveries, {
      ids: webhooks.map(() => randomUUID()),
      webhook_ids: webhooks,
      event_id: id,
      workspace_id: event.workspaceId,
      event_type: event.type,
      payload: serializeEnvelope({ event: event.type, timestamp: at, workspace_id: event.workspaceId, is_test: false, data: event.data }),
      max_attempts: DEFAULT_MAX_ATTEMPTS,
      created_at: at,
    });
  }
  await run(client, SQL.insertFeedEntry, [id, event.workspaceId, feedOf(event.type), event.type, at]);
  return id;
}
