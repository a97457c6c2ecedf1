import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { ideaLine, researchBatchLine, topicLine } from '../../support/content-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';

const server = useTestServer();

describe('GET /api/v1/content/ideas/{idea}', () => {
  it('when the idea belongs to the workspace, answers 200 with the whole idea; its topic name follows the topic', async () => {
    const ws = await createTestWorkspace(server.store);
    const topic = topicLine({ name: 'AI search visibility' });
    const batch = researchBatchLine({ topic_id: topic.id });
    const idea = ideaLine({ topic_id: topic.id, research_batch_id: batch.id });
    await importRecords(server.store, ws, [topic, batch, idea]);
    await importRecords(server.store, ws, [topicLine({ ...topic.record, name: 'AI answer visibility' })]);

    const res = await getWith(server, ws, `/api/v1/content/ideas/${idea.id}`);

    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        id: idea.id,
        title: 'Which pages do AI assistants cite, and why?',
        topic_id: topic.id,
        topic_name: 'AI answer visibility',
        keywords: ['ai citations', 'llm sources'],
        buyer_stage: 'awareness',
        persona_name: 'Head of Content',
        research_batch_id: batch.id,
        created_at: '2026-03-01T10:00:00.000Z',
        updated_at: '2026-03-01T10:00:00.000Z',
      },
    }]);
  });

  it('when the idea belongs to another workspace, answers 404 exactly like an unknown id', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const foreign = ideaLine();
    await importRecords(server.store, other, [foreign]);

    const crossTenant = await getWith(server, ws, `/api/v1/content/ideas/${foreign.id}`);
    const unknown = await getWith(server, ws, `/api/v1/content/ideas/${randomUUID()}`);

    expect([crossTenant.status, crossTenant.body]).toEqual([404, { code: 4040, messages: 'Idea not found.', data: null }]);
    expect([unknown.status, unknown.body]).toEqual([crossTenant.status, crossTenant.body]);
  });
});
