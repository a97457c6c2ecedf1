import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { importLines } from '../../src/import/import-ndjson.js';
import { ImportError } from '../../src/import-engine/import-error.js';
import type { Store } from '../../src/store/index.js';
import { storeContents, rowsOf } from './database-rows.js';

/**
 * Import lines of the content-map, content and brand-intelligence record types. Each builder
 * takes the fields to override and returns `{id, line, record}`; import them with
 * `importRecords` (visibility.ts) or `importLines`.
 */
type Fields = Record<string, unknown>;
export interface Line {
  id: string;
  line: string;
  record: Fields;
}

function line(fields: Fields): Line {
  return { id: fields.id as string, line: JSON.stringify(fields), record: fields };
}

const CREATED = '2026-03-01T10:00:00.000Z';

/** `n` ascending creation times one minute apart from `start`, so list order is known. */
export function minutesFrom(start: string, n: number): string[] {
  const base = Date.parse(start);
  return Array.from({ length: n }, (_, i) => new Date(base + i * 60_000).toISOString());
}

export function topicLine(fields: Fields = {}): Line {
  return line({
    type: 'topic',
    id: randomUUID(),
    name: 'AI search visibility',
    stage: 'READY',
    keywords: [
      { keyword: 'chatgpt brand mentions', msv: 880, kd: 22 },
      { keyword: 'ai search visibility', msv: 2400, kd: 38 },
    ],
    msv_badge: 'MEDIUM',
    kd_badge: 'LOW',
    coverage: 45,
    created_at: CREATED,
    ...fields,
  });
}

export function siteLine(fields: Fields = {}): Line {
  return line({
    type: 'site',
    id: randomUUID(),
    url: 'https://www.acme.example/sitemap.xml',
    kind: 'sitemap',
    url_count: 128,
    last_fetched_at: '2026-03-02T08:00:00.000Z',
    processing: { total: 128, ready: 120, failed: 3, completed: false },
    created_at: CREATED,
    ...fields,
  });
}

export function pageLine(fields: Fields & { site_id: string }): Line {
  return line({
    type: 'page',
    id: randomUUID(),
    url: 'https://www.acme.example/blog/ai-visibility-guide',
    title: 'The complete guide to AI search visibility',
    status: 'READY',
    last_fetched_at: '2026-03-02T08:05:00.000Z',
    created_at: CREATED,
    ...fields,
  });
}

/** The fields `researchBatchLine` gives by default, as the API and the batch's event show them. */
export const RESEARCH_BATCH_AS_READ = {
  name: 'AI visibility: consideration ideas',
  buyer_stage: 'consideration',
  persona_name: 'Head of Content',
  source: 'topic_cluster',
  agent_log: [{ at: '2026-03-01T10:01:00.000Z', message: 'Research started' }],
  research_log: null,
};

export function researchBatchLine(fields: Fields & { topic_id: string }): Line {
  return line({
    type: 'research_batch',
    id: randomUUID(),
    ...RESEARCH_BATCH_AS_READ,
    status: 'PROCESSING',
    created_at: CREATED,
    ...fields,
  });
}

export function ideaLine(fields: Fields = {}): Line {
  return line({
    type: 'idea',
    id: randomUUID(),
    title: 'Which pages do AI assistants cite, and why?',
    keywords: ['ai citations', 'llm sources'],
    buyer_stage: 'awareness',
    persona_name: 'Head of Content',
    created_at: CREATED,
    ...fields,
  });
}

export function articleLine(fields: Fields = {}): Line {
  return line({
    type: 'article',
    id: randomUUID(),
    title: 'How to get your brand cited by ChatGPT',
    buyer_stage: 'consideration',
    status: 'GENERATED',
    topic: 'AI search visibility',
    keywords: ['chatgpt brand mentions', 'ai citations'],
    source: 'research_batch',
    config: { autowrite: true, planned_for: '2026-03-10', planned_time: '09:00' },
    written_on: '2026-03-02T16:40:00.000Z',
    body: '<h1>How to get your brand cited by ChatGPT</h1><p>Answer the question first.</p>',
    slug: 'get-cited-by-chatgpt',
    permalink: '/blog/get-cited-by-chatgpt',
    meta_title: 'How to get your brand cited by ChatGPT',
    meta_description: 'Seven changes that make AI assistants cite your pages.',
    created_at: CREATED,
    ...fields,
  });
}

export function agentTaskLine(fields: Fields = {}): Line {
  return line({
    type: 'agent_task',
    id: randomUUID(),
    agent: { id: '6b0f1f64-4e9c-4a36-9d55-2f7d1c8e9a10', name: 'Article writer', icon: 'pen', short_description: 'Writes an article from an idea' },
    name: 'Write: How to get your brand cited by ChatGPT',
    status: 'RUNNING',
    inputs: { idea_title: 'How to get your brand cited by ChatGPT' },
    usage: { input_tokens: 1200, output_tokens: 0, total_tokens: 1200 },
    started_at: '2026-03-01T10:02:00.000Z',
    created_at: CREATED,
    ...fields,
  });
}

/** A valid `metadata` of each brand-intelligence kind. */
export const IQ_METADATA: Record<string, Fields> = {
  product: { category: 'AI visibility analytics', features: ['Prompt tracking'], benefits: ['See where AI assistants send buyers'], differentiators: ['Six platforms'], price_range: null },
  persona: { job_title: 'Head of Content', seniority: 'manager', industries: ['B2B software'], goals: ['Grow organic pipeline'], pain_points: ['Traffic lost to AI answers'], objections: [] },
  voice: { tone_attributes: ['confident', 'plain-spoken'], reading_level: 'grade 9', dos: ['Lead with the answer'], donts: ['Jargon'] },
  content_type: { format: 'how-to guide', word_count_min: 1200, word_count_max: 2000, sections: ['Introduction', 'Steps', 'FAQ'] },
  visual_guideline: { colors: [{ name: 'Primary', hex: '#4f46e5' }], fonts: ['Inter'], image_style: null },
};

export function iqRecordLine(kind: string, fields: Fields = {}): Line {
  return line({
    type: 'iq_record',
    id: randomUUID(),
    kind,
    title: `Acme ${kind.replace('_', ' ')}`,
    description: `The ${kind.replace('_', ' ')} of Acme.`,
    content: `## Acme ${kind}\n\nAnalysis.`,
    metadata: IQ_METADATA[kind],
    stage: 'READY',
    created_at: CREATED,
    ...fields,
  });
}

/** Imports the lines, expects the import to fail with exactly `message`, and the database to be as it was. */
export async function expectImportRejected(store: Store, workspaceId: string, lines: readonly string[], message: string): Promise<void> {
  const before = await storeContents(store);
  const error = await importLines(store, workspaceId, lines).then(() => undefined, (err: unknown) => err);
  expect(error).toBeInstanceOf(ImportError);
  expect((error as ImportError).message).toBe(message);
  expect(await storeContents(store)).toEqual(before);
}

/** The workspace's outbox, oldest first: event type and parsed data. */
export async function outboxEvents(store: Store, workspaceId: string): Promise<Array<{ type: string; data: unknown }>> {
  // Events of one write share a time; SQLite's rowid and the feed's number both keep their order.
  const order = store.kind === 'sqlite' ? 'e.created_at, e.rowid' : 'e.created_at, f.seq NULLS LAST, e.id';
  const events = await rowsOf<{ event_type: string; data: string }>(store,
    `SELECT e.event_type, e.data FROM webhook_events e LEFT JOIN event_feed f ON f.event_id = e.id WHERE e.workspace_id = ? ORDER BY ${order}`, [workspaceId]);
  return events.map((row) => ({ type: row.event_type, data: JSON.parse(row.data) as unknown }));
}

/** The record with `fields` changed, as a new import line of the same id. */
export function changed(original: Line, fields: Fields): Line {
  return line({ ...original.record, ...fields });
}
