import type { components } from '../../generated/openapi.js';
import type { EventType } from '../../generated/events.js';

export type EventCatalogEntry = components['schemas']['EventCatalogEntry'];
type EventGroup = components['schemas']['EventGroup'];

const GROUPS: readonly EventGroup[] = ['content', 'research_batch', 'agent_task', 'topic', 'iq', 'sitemap_url'];

interface AsyncApiMessage {
  name?: unknown;
  title?: unknown;
  summary?: unknown;
  'x-group'?: unknown;
}

/**
 * The event catalog, read from the bundled AsyncAPI document: one entry per message, in document
 * order; `label` is the message title, `description` its summary, `group` its `x-group`. A message
 * missing any of them stops the service at startup rather than answering a partial catalog.
 */
export function eventCatalogFrom(asyncApiDocument: object): EventCatalogEntry[] {
  const messages = (asyncApiDocument as { components?: { messages?: Record<string, AsyncApiMessage> } }).components?.messages ?? {};
  const entries = Object.entries(messages).map(([key, message]): EventCatalogEntry => {
    const { name, title, summary } = message;
    const group = message['x-group'];
    if (typeof name !== 'string' || typeof title !== 'string' || typeof summary !== 'string') {
      throw new Error(`AsyncAPI message ${key} needs a name, a title and a summary for the event catalog`);
    }
    if (!GROUPS.includes(group as EventGroup)) throw new Error(`AsyncAPI message ${key} has no known x-group`);
    return { event: name as EventType, label: title, description: summary, group: group as EventGroup };
  });
  if (entries.length === 0) throw new Error('the AsyncAPI document describes no event');
  return entries;
}
