import { randomUUID } from 'node:crypto';
import type { EventType } from '../../../generated/events.js';
import type { OutboxEvent } from '../interfaces/webhook-deliveries.js';
import { eventEnvelope, serializeEnvelope } from '../event-envelopes.js';
import { feedOf } from '../feed-of-event-type.js';
import { DEFAULT_RETRY_SCHEDULE, parseDurationList } from '../../config.js';
import type { Db } from './database.js';
import { feedEntryWriter } from './event-feed.js';

// Shown until the dispatcher's first claim sets the figure of its configured schedule.
const DEFAULT_MAX_ATTEMPTS = parseDurationList(DEFAULT_RETRY_SCHEDULE, 'default schedule').length + 1;

const outboxByDb = new WeakMap<Db, ReturnType<typeof prepareOutbox>>();

function prepareOutbox(db: Db) {
  return {
    insertEvent: db.prepare(
      'INSERT INTO webhook_events (id, workspace_id, event_type, data, created_at) VALUES (?, ?, ?, ?, ?)',
    ),
    subscribedWebhooks: db
      .prepare(
        `SELECT w.id FROM webhooks w
         WHERE w.workspace_id = ? AND w.enabled = 1 AND EXISTS (SELECT 1 FROM json_each(w.events) e WHERE e.value = ?)
         ORDER BY w.id`,
      )
      .pluck(),
    insertDelivery: db.prepare(
      `INSERT INTO webhook_deliveries (id, event_id, webhook_id, workspace_id, event_type, payload, max_attempts, next_attempt_at, created_at)
       VALUES (@id, @event_id, @webhook_id, @workspace_id, @event_type, @payload, @max_attempts, @created_at, @created_at)`,
    ),
  };
}

/**
 * The outbox's statements for a connection, prepared once: the import's writers call the outbox
 * with a bare `Db` from inside the import's transaction.
 */
function outboxStatements(db: Db): ReturnType<typeof prepareOutbox> {
  let statements = outboxByDb.get(db);
  if (!statements) {
    statements = prepareOutbox(db);
    outboxByDb.set(db, statements);
  }
  return statements;
}

/**
 * Writes an event to the outbox, gives it its place in its read feed (whether or not a webhook
 * subscribes, so the feed is complete) and fans it out into one pending delivery per enabled
 * webhook of the workspace subscribed to its type. Called inside the transaction that changes the
 * record (the import's), so the change, its event, its feed entry and its deliveries commit
 * together or not at all; it opens its own transaction when called outside one. Returns the event id.
 */
export function enqueueEvent<E extends EventType>(db: Db, event: OutboxEvent<E>): string {
  const statements = outboxStatements(db);
  const feedEntry = feedEntryWriter(db);
  const id = randomUUID();
  const at = (event.at ?? new Date()).toISOString();
  const write = (): void => {
    statements.insertEvent.run(id, event.workspaceId, event.type, JSON.stringify(event.data), at);
    feedEntry.run(id, event.workspaceId, feedOf(event.type), event.type, at);
    const webhooks = statements.subscribedWebhooks.all(event.workspaceId, event.type) as string[];
    if (webhooks.length === 0) return;
    const payload = serializeEnvelope(eventEnvelope(event.type, { timestamp: at, workspace_id: event.workspaceId, is_test: false }, event.data));
    for (const webhookId of webhooks) {
      statements.insertDelivery.run({
        id: randomUUID(),
        event_id: id,
        webhook_id: webhookId,
        workspace_id: event.workspaceId,
        event_type: event.type,
        payload,
        max_attempts: DEFAULT_MAX_ATTEMPTS,
        created_at: at,
      });
    }
  };
  if (db.inTransaction) write();
  else db.transaction(write).immediate();
  return id;
}
