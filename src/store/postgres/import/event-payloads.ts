// The payloads of the events an import writes on PostgreSQL: each changed record as the read API
// shows it, read back once the change is written, with the reads and views every store shares, a
// batch of events at a time (one query per event type, not one per event).
import type pg from 'pg';
import type { EventPayloads, EventType } from '../../../../generated/events.js';
import {
  agentTaskView, articleView, batchView, CONTENT_SQL, type AgentTaskRow, type ArticleRow, type BatchIdeaRow, type ResearchBatchRow,
} from '../../content-rows.js';
import { CONTENT_MAP_SQL, sitemapUrlView, topicView, type SitemapUrlRow, type TopicRow } from '../../content-map-rows.js';
import type { OutboxEvent } from '../../interfaces/webhook-deliveries.js';
import { IQ_SQL, iqView, type IqRow } from '../../iq-rows.js';
import { IDEAS_OF_BATCHES } from '../content.js';
import { rows } from '../query.js';

/** An event of the import whose payload is read when it is written. */
export interface PendingEvent {
  type: EventType;
  id: string;
  /** When the import wrote it, by the import's clock: the event's `timestamp`. */
  at: Date;
}

/** A read by id of the shared SQL (`… id = ? AND … workspace_id = ?`) as a read of many ids at once. */
function byIds(sql: string): string {
  const many = sql.replace(/\b((?:\w+\.)?id) = \? AND ((?:\w+\.)?workspace_id) = \?/, '$1 = ANY(CAST(? AS TEXT[])) AND $2 = ?');
  if (many === sql) throw new Error(`not a read by id and workspace: ${sql}`);
  return many;
}

type Reader<E extends EventType> = (client: pg.PoolClient, workspaceId: string, ids: string[]) => Promise<Map<string, EventPayloads[E]>>;

function reader<Row extends { id: string }, E extends EventType>(sql: string, view: (row: Row) => EventPayloads[E]): Reader<E> {
  const many = byIds(sql);
  return async (client, workspaceId, ids) => new Map((await rows<Row>(client, many, [ids, workspaceId])).map((row) => [row.id, view(row)]));
}

const readBatches: Reader<'research_batch.status_updated'> = async (client, workspaceId, ids) => {
  const batches = await rows<ResearchBatchRow>(client, byIds(CONTENT_SQL.getBatch), [ids, workspaceId]);
  const ideas = new Map<string, BatchIdeaRow[]>(batches.map((b) => [b.id, []]));
  for (const { research_batch_id, ...idea } of await rows<BatchIdeaRow & { research_batch_id: string }>(client, IDEAS_OF_BATCHES, [ids])) {
    ideas.get(research_batch_id)?.push(idea);
  }
  return new Map(batches.map((b) => [b.id, batchView(b, ideas.get(b.id)!)]));
};

const READERS: { [E in EventType]: Reader<E> } = {
  'content.status_updated': reader<ArticleRow, 'content.status_updated'>(CONTENT_SQL.getArticle, articleView),
  'research_batch.status_updated': readBatches,
  'agent_task.status_updated': reader<AgentTaskRow, 'agent_task.status_updated'>(CONTENT_SQL.getTask, agentTaskView),
  'topic.status_updated': reader<TopicRow, 'topic.status_updated'>(CONTENT_MAP_SQL.getTopic, topicView),
  'iq.status_updated': reader<IqRow, 'iq.status_updated'>(IQ_SQL.get, iqView),
  'sitemap_url.status_updated': reader<SitemapUrlRow, 'sitemap_url.status_updated'>(CONTENT_MAP_SQL.getSitemapUrl, sitemapUrlView),
};

/**
 * The events with their payloads, in order. The records were written just before, so a missing one
 * is a bug, not bad input.
 */
export async function withPayloads(client: pg.PoolClient, workspaceId: string, events: readonly PendingEvent[]): Promise<OutboxEvent[]> {
  const byType = new Map<EventType, Map<string, EventPayloads[EventType]>>();
  for (const type of new Set(events.map((e) => e.type))) {
    const ids = [...new Set(events.filter((e) => e.type === type).map((e) => e.id))];
    byType.set(type, await READERS[type](client, workspaceId, ids));
  }
  return events.map(({ type, id, at }) => {
    const data = byType.get(type)!.get(id);
    if (data === undefined) throw new Error(`no stored record ${id} to build its ${type} event from`);
    return { workspaceId, type, data, at };
  });
}
