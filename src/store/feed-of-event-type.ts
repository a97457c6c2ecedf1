import type { components } from '../../generated/openapi.js';
import type { EventType } from '../../generated/events.js';
import type { Feed } from './interfaces/event-feed.js';

type Schemas = components['schemas'];

/**
 * The feed of each event type, as the contract's `ContentEventType`, `ContentMapEventType` and
 * `IqEventType` divide them: the type makes an event type the contract adds, or one missing here,
 * a compile error. SQLite's migration 044 writes the same mapping for events recorded before it.
 */
export const FEED_OF: Record<Schemas['ContentEventType'], 'content'> & Record<Schemas['ContentMapEventType'], 'content-map'> & Record<Schemas['IqEventType'], 'iq'> = {
  'content.status_updated': 'content',
  'research_batch.status_updated': 'content',
  'agent_task.status_updated': 'content',
  'topic.status_updated': 'content-map',
  'sitemap_url.status_updated': 'content-map',
  'iq.status_updated': 'iq',
};

/** The feed that lists events of `type`. */
export function feedOf(type: EventType): Feed {
  return FEED_OF[type];
}
