import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { articleLine, ideaLine } from '../../support/content-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';

const server = useTestServer();

describe('GET /api/v1/content/articles/{article}', () => {
  it('when the article belongs to the workspace, answers 200 with the whole article including its HTML body', async () => {
    const ws = await createTestWorkspace(server.store);
    const article = articleLine({ updated_at: '2026-03-02T16:40:00.000Z' });
    await importRecords(server.store, ws, [article]);

    const res = await getWith(server, ws, `/api/v1/content/articles/${article.id}`);

    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        id: article.id,
        title: 'How to get your brand cited by ChatGPT',
        buyer_stage: 'consideration',
        metadata: { topic: 'AI search visibility', keywords: ['chatgpt brand mentions', 'ai citations'], source: 'research_batch' },
        status: 'GENERATED',
        config: { autowrite: true, planned_for: '2026-03-10', planned_time: '09:00' },
        written_on: '2026-03-02T16:40:00.000Z',
        published_on: null,
        research_batch_id: null,
        topic: 'AI search visibility',
        keywords: ['chatgpt brand mentions', 'ai citations'],
        source: 'research_batch',
        body: '<h1>How to get your brand cited by ChatGPT</h1><p>Answer the question first.</p>',
        cover_image: null,
        slug: 'get-cited-by-chatgpt',
        permalink: '/blog/get-cited-by-chatgpt',
        meta_title: 'How to get your brand cited by ChatGPT',
        meta_description: 'Seven changes that make AI assistants cite your pages.',
        post_url: null,
        createdAt: '2026-03-01T10:00:00.000Z',
        updatedAt: '2026-03-02T16:40:00.000Z',
      },
    }]);
    // The contract's field order, `body` after `source`, as the event payload carries it.
    expect(Object.keys((res.body as { data: object }).data).slice(11, 13)).toEqual(['source', 'body']);
  });

  it('when the article belongs to another workspace, answers 404 exactly like an unknown id', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const foreign = articleLine();
    await importRecords(server.store, other, [foreign]);

    const crossTenant = await getWith(server, ws, `/api/v1/content/articles/${foreign.id}`);
    const unknown = await getWith(server, ws, `/api/v1/content/articles/${randomUUID()}`);

    expect([crossTenant.status, crossTenant.body]).toEqual([404, { code: 4040, messages: 'Article not found.', data: null }]);
    expect([unknown.status, unknown.body]).toEqual([crossTenant.status, crossTenant.body]);
  });

  it('when the id is an idea of the workspace, answers 404', async () => {
    const ws = await createTestWorkspace(server.store);
    const idea = ideaLine();
    await importRecords(server.store, ws, [idea]);
    const res = await getWith(server, ws, `/api/v1/content/articles/${idea.id}`);
    expect([res.status, res.body]).toEqual([404, { code: 4040, messages: 'Article not found.', data: null }]);
  });
});
