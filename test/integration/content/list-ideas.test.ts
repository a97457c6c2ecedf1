import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { ideaLine, minutesFrom, researchBatchLine, topicLine } from '../../support/content-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { expectStablePaging } from '../../contract/framework/paging.js';

const server = useTestServer();

async function ids(ws: TestWorkspace, query: Record<string, string | number>): Promise<string[]> {
  const res = await getWith(server, ws, '/api/v1/content/ideas', { limit: 100, ...query });
  expect(res.status).toBe(200);
  return (res.body as { data: { items: Array<{ id: string }> } }).data.items.map((i) => i.id);
}

/** Two topics, a research batch on the first, and four ideas created in this order. */
async function library(ws: TestWorkspace) {
  const visibility = topicLine({ name: 'AI search visibility' });
  const pricing = topicLine({ name: 'Pricing' });
  const batch = researchBatchLine({ topic_id: visibility.id });
  const times = minutesFrom('2026-03-01T10:00:00.000Z', 4);
  const ideas = [
    ideaLine({ topic_id: visibility.id, research_batch_id: batch.id, buyer_stage: 'awareness', created_at: times[0] }),
    ideaLine({ topic_id: visibility.id, research_batch_id: batch.id, buyer_stage: 'decision', created_at: times[1] }),
    ideaLine({ topic_id: pricing.id, buyer_stage: 'decision', created_at: times[2] }),
    ideaLine({ title: 'Unsorted idea', keywords: [], buyer_stage: null, persona_name: null, created_at: times[3] }),
  ];
  await importRecords(server.store, ws, [...ideas, batch, visibility, pricing]);
  return { visibility, pricing, batch, ideas };
}

describe('GET /api/v1/content/ideas', () => {
  it('when the workspace has ideas, answers 200 with every idea oldest first, with its topic and research batch', async () => {
    const ws = await createTestWorkspace(server.store);
    const { visibility, batch, ideas } = await library(ws);

    const res = await getWith(server, ws, '/api/v1/content/ideas', { limit: 1 });

    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        items: [{
          id: ideas[0]!.id,
          title: 'Which pages do AI assistants cite, and why?',
          topic_id: visibility.id,
          topic_name: 'AI search visibility',
          keywords: ['ai citations', 'llm sources'],
          buyer_stage: 'awareness',
          persona_name: 'Head of Content',
          research_batch_id: batch.id,
          created_at: '2026-03-01T10:00:00.000Z',
          updated_at: '2026-03-01T10:00:00.000Z',
        }],
        next_cursor: expect.any(String),
      },
    }]);
    const last = await getWith(server, ws, '/api/v1/content/ideas', { limit: 1, buyer_stage: 'decision', topic: visibility.id });
    expect((last.body as { data: unknown }).data).toEqual({ items: [expect.objectContaining({ id: ideas[1]!.id })], next_cursor: null });
  });

  it('when research_batch, buyer_stage and topic are given, answers the ideas matching all of them', async () => {
    const ws = await createTestWorkspace(server.store);
    const { pricing, batch, ideas } = await library(ws);
    const id = (i: number) => ideas[i]!.id;

    expect(await ids(ws, {})).toEqual([id(0), id(1), id(2), id(3)]);
    expect(await ids(ws, { research_batch: batch.id })).toEqual([id(0), id(1)]);
    expect(await ids(ws, { buyer_stage: 'decision' })).toEqual([id(1), id(2)]);
    expect(await ids(ws, { topic: pricing.id })).toEqual([id(2)]);
    expect(await ids(ws, { research_batch: batch.id, buyer_stage: 'decision' })).toEqual([id(1)]);
  });

  it('when an idea has no topic or batch, answers it with nulls', async () => {
    const ws = await createTestWorkspace(server.store);
    const { ideas } = await library(ws);
    const res = await getWith(server, ws, `/api/v1/content/ideas/${ideas[3]!.id}`);
    expect((res.body as { data: unknown }).data).toEqual({
      id: ideas[3]!.id,
      title: 'Unsorted idea',
      topic_id: null,
      topic_name: null,
      keywords: [],
      buyer_stage: null,
      persona_name: null,
      research_batch_id: null,
      created_at: '2026-03-01T10:03:00.000Z',
      updated_at: '2026-03-01T10:03:00.000Z',
    });
  });

  it('when the research_batch filter names a batch of another workspace, answers an empty page', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    await library(ws);
    const { batch } = await library(other);

    expect(await ids(ws, { research_batch: batch.id })).toEqual([]);
  });

  it('when paged with limit 1, 2 and 3, answers every idea once in one order and refuses tampered or foreign cursors', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const { ideas } = await library(ws);
    await library(other);

    await expectStablePaging({
      call: (spec) => send(server.url, spec, ws.key),
      request: { path: '/api/v1/content/ideas' },
      ids: ideas.map((i) => i.id),
      foreign: { path: '/api/v1/content/ideas', key: other.key },
    });
  });
});
