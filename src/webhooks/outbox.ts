import { randomUUID } from 'node:crypto';
import type { EventPayloads, EventType } from '../../generated/events.js';
import type { Db } from '../store/database.js';
import { outboxStatements } from '../store/webhook-deliveries.js';
import { feedEntryWriter } from '../store/event-feed.js';
import { feedOf } from '../events/feeds.js';
import { eventEnvelope, serializeEnvelope } from '../events/envelopes.js';
import { DEFAULT_RETRY_SCHEDULE, parseDurationList } from '../config.js';

export type { EventType };

// Shown until the dispatcher's first claim sets the figure of its configured schedule.
const DEFAULT_MAX_ATTEMPTS = parseDurationList(DEFAULT_RETRY_SCHEDULE, 'default schedule').length + 1;

/**
 * Writes an event to the outbox, gives it its place in its read feed (whether or not a webhook
 * subscribes, so the feed is complete) and fans it out into one pending delivery per enabled
 * webhook of the workspace subscribed to its type. Call it inside the transaction that changes the
 * record, so the change, its event, its feed entry and its deliveries commit together or not at
 * all (it opens its own transaction when called outside one). Returns the event id.
 */
export function enqueueEvent<E extends EventType>(db: Db, event: { workspaceId: string; type: E; data: EventPayloads[E]; at?: Date }): string {
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
