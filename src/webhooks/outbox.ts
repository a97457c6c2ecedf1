import { randomUUID } from 'node:crypto';
import type { EventEnvelopes, EventPayloads, EventType, WebhookEvent } from '../../generated/events.js';
import type { Db } from '../store/database.js';
import { outboxStatements } from '../store/webhook-deliveries.js';
import { feedEntryWriter } from '../store/event-feed.js';
import { feedOf } from '../events/feeds.js';
import { DEFAULT_RETRY_SCHEDULE, parseDurationList } from '../config.js';

export type { EventType, WebhookEvent };

/** What every delivery body carries besides its event type and data (the AsyncAPI `WebhookEvent` envelopes). */
export type EnvelopeFields = Omit<WebhookEvent, 'event' | 'data'>;

const envelopeOf = <E extends EventType>(event: E) => (fields: EnvelopeFields, data: EventPayloads[E]) => ({ event, ...fields, data });

// One builder per event type, typed by the event's own generated envelope: the compiler checks that
// each body is exactly what the AsyncAPI document says, and a new event type is a compile error here.
const ENVELOPES: { [E in EventType]: (fields: EnvelopeFields, data: EventPayloads[E]) => EventEnvelopes[E] } = {
  'content.status_updated': envelopeOf('content.status_updated'),
  'research_batch.status_updated': envelopeOf('research_batch.status_updated'),
  'agent_task.status_updated': envelopeOf('agent_task.status_updated'),
  'topic.status_updated': envelopeOf('topic.status_updated'),
  'iq.status_updated': envelopeOf('iq.status_updated'),
  'sitemap_url.status_updated': envelopeOf('sitemap_url.status_updated'),
};

/** The delivery body of an event of `type` carrying `data`. */
export function eventEnvelope<E extends EventType>(type: E, fields: EnvelopeFields, data: EventPayloads[E]): EventEnvelopes[E] {
  return ENVELOPES[type](fields, data);
}

// Shown until the dispatcher's first claim sets the figure of its configured schedule.
const DEFAULT_MAX_ATTEMPTS = parseDurationList(DEFAULT_RETRY_SCHEDULE, 'default schedule').length + 1;

/** The exact bytes a delivery sends; the property order is the contract's. */
export function serializeEnvelope(envelope: WebhookEvent): string {
  const { event, timestamp, workspace_id, is_test, data } = envelope;
  return JSON.stringify({ event, timestamp, workspace_id, is_test, data });
}

/**
 * A stored delivery body read back. Only `serializeEnvelope` writes these bytes, from a
 * `WebhookEvent`, and they never change afterwards, so the text parses to one.
 */
export function parseStoredEnvelope(bytes: string): WebhookEvent {
  return JSON.parse(bytes) as WebhookEvent;
}

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
