// The body of every webhook delivery, which is also each item of the read API's event feeds: the
// AsyncAPI `WebhookEvent` envelopes, built, serialised and read back with their generated types.
import type { EventEnvelopes, EventPayloads, EventType, WebhookEvent } from '../../generated/events.js';

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

/** An event's stored `data` read back: the outbox (`webhookDeliveries.enqueueEvent`) wrote it from the payload of its type. */
export function parseStoredData<E extends EventType>(_type: E, text: string): EventPayloads[E] {
  return JSON.parse(text) as EventPayloads[E];
}
