import { randomUUID } from 'node:crypto';
import type { Db } from '../store/database.js';

export type EventType =
  | 'content.status_updated'
  | 'research_batch.status_updated'
  | 'agent_task.status_updated'
  | 'topic.status_updated'
  | 'iq.status_updated'
  | 'sitemap_url.status_updated';

/**
 * Writes an event to the outbox. Call it inside the transaction that changes the record, so the
 * change and its event commit together or not at all.
 */
export function enqueueEvent(db: Db, event: { workspaceId: string; type: EventType; data: object; at?: Date }): string {
  const id = randomUUID();
  db.prepare('INSERT INTO webhook_events (id, workspace_id, event_type, data, created_at) VALUES (?, ?, ?, ?, ?)')
    .run(id, event.workspaceId, event.type, JSON.stringify(event.data), (event.at ?? new Date()).toISOString());
  return id;
}
