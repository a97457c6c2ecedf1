import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { articleLine, minutesFrom, researchBatchLine, topicLine } from '../../support/content-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { expectStablePaging } from '../../contract/framework/paging.js';

const server = useTestServer();

function list(ws: TestWorkspace, query: Record<string, string | number> = {}) {
  return getWith(server, ws, '/api/v1/content/articles', query);
}

async function ids(ws: TestWorkspace, query: Record<string, string | number>): Promise<string[]> {
  const res = await list(ws, { limit: 100, ...query });
  expect(res.status).toBe(200);
  return (res.body as { data: { items: Array<{ id: string }> } }).data.items.map((a) => a.id);
}

describe('GET /api/v1/content/articles', () => {
  it('when the workspace has articles, answers 200 with every article oldest first, without body', async () => {
    const ws = await createTestWorkspace(server.store);
    const topic = topicLine({ name: 'Generative engine optimisation' });
    const batch = researchBatchLine({ topic_id: topic.id });
    const [first, second] = minutesFrom('2026-03-01T10:00:00.000Z', 2);
    const linked = articleLine({
      topic_id: topic.id,
      topic: undefined,
      research_batch_id: batch.id,
      status: 'PUBLISHED',
      published_on: '2026-03-03T09:00:00.000Z',
      post_url: 'https://www.acme.example/blog/get-cited-by-chatgpt',
      cover_image: 'https://cdn.acme.example/covers/chatgpt.png',
      created_at: second,
      updated_at: '2026-03-03T09:00:00.000Z',
    });
    const draft = articleLine({
      title: 'AI visibility for agencies',
      buyer_stage: null,
      status: 'DRAFT',
      topic: 'Agencies',
      keywords: [],
      source: 'manual',
      config: undefined,
      written_on: null,
      body: null,
      slug: null,
      permalink: null,
      meta_title: null,
      meta_description: null,
      created_at: first,
    });
    await importRecords(server.store, ws, [linked, draft, topic, batch]);

    const res = await list(ws);

    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        items: [
          {
            id: draft.id,
            title: 'AI visibility for agencies',
            buyer_stage: null,
            metadata: { topic: 'Agencies', keywords: [], source: 'manual' },
            status: 'DRAFT',
            config: { autowrite: false, planned_for: null, planned_time: null },
            written_on: null,
            published_on: null,
            research_batch_id: null,
            topic: 'Agencies',
            keywords: [],
            source: 'manual',
            cover_image: null,
            slug: null,
            permalink: null,
            meta_title: null,
            meta_description: null,
            post_url: null,
            createdAt: first,
            updatedAt: first,
          },
          {
            id: linked.id,
            title: 'How to get your brand cited by ChatGPT',
            buyer_stage: 'consideration',
            metadata: { topic: 'Generative engine optimisation', keywords: ['chatgpt brand mentions', 'ai citations'], source: 'research_batch' },
            status: 'PUBLISHED',
            config: { autowrite: true, planned_for: '2026-03-10', planned_time: '09:00' },
            written_on: '2026-03-02T16:40:00.000Z',
            published_on: '2026-03-03T09:00:00.000Z',
            research_batch_id: batch.id,
            topic: 'Generative engine optimisation',
            keywords: ['chatgpt brand mentions', 'ai citations'],
            source: 'research_batch',
            cover_image: 'https://cdn.acme.example/covers/chatgpt.png',
            slug: 'get-cited-by-chatgpt',
            permalink: '/blog/get-cited-by-chatgpt',
            meta_title: 'How to get your brand cited by ChatGPT',
            meta_description: 'Seven changes that make AI assistants cite your pages.',
            post_url: 'https://www.acme.example/blog/get-cited-by-chatgpt',
            createdAt: second,
            updatedAt: '2026-03-03T09:00:00.000Z',
          },
        ],
        next_cursor: null,
      },
    }]);
  });

  it('when status, buyer_stage and topic are given, answers the articles matching all of them', async () => {
    const ws = await createTestWorkspace(server.store);
    const topic = topicLine();
    const times = minutesFrom('2026-03-01T10:00:00.000Z', 4);
    const articles = [
      articleLine({ topic_id: topic.id, status: 'PUBLISHED', buyer_stage: 'decision', created_at: times[0] }),
      articleLine({ topic_id: topic.id, status: 'DRAFT', buyer_stage: 'decision', created_at: times[1] }),
      articleLine({ status: 'PUBLISHED', buyer_stage: 'awareness', created_at: times[2] }),
      articleLine({ topic_id: topic.id, status: 'PUBLISHED', buyer_stage: null, created_at: times[3] }),
    ];
    await importRecords(server.store, ws, [topic, ...articles]);
    const id = (i: number) => articles[i]!.id;

    expect(await ids(ws, { status: 'PUBLISHED' })).toEqual([id(0), id(2), id(3)]);
    expect(await ids(ws, { buyer_stage: 'decision' })).toEqual([id(0), id(1)]);
    expect(await ids(ws, { topic: topic.id })).toEqual([id(0), id(1), id(3)]);
    expect(await ids(ws, { status: 'PUBLISHED', buyer_stage: 'decision', topic: topic.id })).toEqual([id(0)]);
  });

  it('when another workspace has articles, never lists them', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const mine = articleLine();
    await importRecords(server.store, ws, [mine]);
    await importRecords(server.store, other, [articleLine(), articleLine()]);

    expect(await ids(ws, {})).toEqual([mine.id]);
  });

  it('when paged with limit 1, 2 and 3, answers every article once in one order and refuses tampered or foreign cursors', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const articles = Array.from({ length: 5 }, (_, i) => articleLine({ created_at: `2026-03-0${1 + (i % 2)}T10:00:00.000Z` }));
    await importRecords(server.store, ws, articles);
    await importRecords(server.store, other, [articleLine(), articleLine()]);

    await expectStablePaging({
      call: (spec) => send(server.url, spec, ws.key),
      request: { path: '/api/v1/content/articles', query: { status: 'GENERATED' } },
      ids: articles.map((a) => a.id),
      foreign: { path: '/api/v1/content/articles', query: { status: 'GENERATED' }, key: other.key },
    });
  });

  it('when buyer_stage is not a stage, answers 422 naming buyer_stage', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await list(ws, { buyer_stage: 'retention' });
    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
    expect((res.body as { messages: string }).messages).toContain('buyer_stage');
  });
});
