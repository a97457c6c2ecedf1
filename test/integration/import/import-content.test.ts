import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importLines } from '../../../src/import/import-ndjson.js';
import type { Store } from '../../../src/store/index.js';
import { createTestStore } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { storeContents } from '../../support/database-rows.js';
import {
  agentTaskLine, articleLine, changed, expectImportRejected, ideaLine, outboxEvents, researchBatchLine, topicLine,
} from '../../support/content-records.js';

let store: Store;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ store, cleanup } = await createTestStore());
});
afterEach(() => cleanup());

describe('import: research_batch', () => {
  it('when a batch completes in the file that brings its ideas, the event lists every idea, even those after it', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const topic = topicLine({ name: 'AI search visibility' });
    const batch = researchBatchLine({ topic_id: topic.id, status: 'PROCESSING' });
    await importLines(store, workspaceId, [topic.line, batch.line], { events: false });
    const ideas = [ideaLine({ research_batch_id: batch.id, created_at: '2026-03-02T10:00:00.000Z' }), ideaLine({ research_batch_id: batch.id, title: 'Second', created_at: '2026-03-02T10:01:00.000Z' })];

    const summary = await importLines(store, workspaceId, [
      changed(batch, { status: 'COMPLETED', updated_at: '2026-03-02T11:00:00.000Z' }).line,
      ideas[0]!.line,
      ideas[1]!.line,
    ]);

    expect(summary).toEqual({ records: 3, inserted: 2, updated: 1, unchanged: 0, deleted: 0, events: 1, events_suppressed: 0 });
    expect(await outboxEvents(store, workspaceId)).toEqual([{
      type: 'research_batch.status_updated',
      data: {
        id: batch.id,
        name: 'AI visibility: consideration ideas',
        ideas_count: 2,
        status: 'COMPLETED',
        topic_id: topic.id,
        topic_name: 'AI search visibility',
        buyer_stage: 'consideration',
        persona_name: 'Head of Content',
        source: 'topic_cluster',
        agent_log: [{ at: '2026-03-01T10:01:00.000Z', message: 'Research started' }],
        research_log: null,
        ideas: [
          { id: ideas[0]!.id, title: 'Which pages do AI assistants cite, and why?', keywords: ['ai citations', 'llm sources'], buyer_stage: 'awareness' },
          { id: ideas[1]!.id, title: 'Second', keywords: ['ai citations', 'llm sources'], buyer_stage: 'awareness' },
        ],
        createdAt: '2026-03-01T10:00:00.000Z',
        updatedAt: '2026-03-02T11:00:00.000Z',
      },
    }]);
  });

  it('when the same batch is imported again, changes nothing and sends no event', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const topic = topicLine();
    const lines = [topic.line, researchBatchLine({ topic_id: topic.id, research_log: { sources: ['https://example.com'] } }).line];
    await importLines(store, workspaceId, lines);
    const before = await storeContents(store);

    expect(await importLines(store, workspaceId, lines)).toEqual({ records: 2, inserted: 0, updated: 0, unchanged: 2, deleted: 0, events: 0, events_suppressed: 0 });
    expect(await storeContents(store)).toEqual(before);
  });

  it('when topic_id refers to no topic, rejects the file', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const missing = randomUUID();
    await expectImportRejected(store, workspaceId, [researchBatchLine({ topic_id: missing }).line], `line 1: topic_id: no topic with id ${missing} in this workspace`);
  });
});

describe('import: idea', () => {
  it('when research_batch_id refers to an article, rejects the file', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const article = articleLine();
    await importLines(store, workspaceId, [article.line]);
    await expectImportRejected(store, workspaceId, [ideaLine({ research_batch_id: article.id }).line], 'line 1: research_batch_id: refers to a article, not a research_batch');
  });

  it('when the same idea is imported again, reports it unchanged', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const idea = ideaLine();
    await importLines(store, workspaceId, [idea.line]);
    expect(await importLines(store, workspaceId, [idea.line])).toEqual({ records: 1, inserted: 0, updated: 0, unchanged: 1, deleted: 0, events: 0, events_suppressed: 0 });
  });
});

describe('import: article', () => {
  it('when an existing article changes status, sends content.status_updated with the article as GET returns it', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const topic = topicLine({ name: 'AI search visibility' });
    const article = articleLine({ topic_id: topic.id, status: 'GENERATED' });
    await importLines(store, workspaceId, [topic.line, article.line], { events: false });

    const summary = await importLines(store, workspaceId, [
      changed(article, { status: 'PUBLISHED', published_on: '2026-03-04T09:00:00.000Z', post_url: 'https://www.acme.example/blog/x' }).line,
    ]);

    expect(summary).toMatchObject({ updated: 1, events: 1 });
    const stored = (await store.content.getArticle(workspaceId, article.id))!;
    expect(stored).toMatchObject({ status: 'PUBLISHED', topic: 'AI search visibility', body: expect.stringContaining('<h1>') });
    expect(await outboxEvents(store, workspaceId)).toEqual([{ type: 'content.status_updated', data: stored }]);
  });

  it('when a file moves an article through several statuses, sends one event per change, in order', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const article = articleLine({ status: 'DRAFT' });
    await importLines(store, workspaceId, [article.line], { events: false });

    const summary = await importLines(store, workspaceId, [
      changed(article, { status: 'PROCESSING' }).line,
      changed(article, { status: 'PROCESSING', title: 'Renamed' }).line,
      changed(article, { status: 'GENERATED', title: 'Renamed' }).line,
    ]);

    expect(summary).toEqual({ records: 3, inserted: 0, updated: 3, unchanged: 0, deleted: 0, events: 2, events_suppressed: 0 });
    expect((await outboxEvents(store, workspaceId)).map((e) => [e.type, (e.data as { status: string; title: string }).status, (e.data as { title: string }).title])).toEqual([
      ['content.status_updated', 'PROCESSING', 'How to get your brand cited by ChatGPT'],
      ['content.status_updated', 'GENERATED', 'Renamed'],
    ]);
  });

  it('when a new article arrives, announces its first status once; re-imported unchanged, sends nothing', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const article = articleLine({ status: 'PUBLISHED' });
    expect(await importLines(store, workspaceId, [article.line])).toMatchObject({ inserted: 1, events: 1 });
    expect(await importLines(store, workspaceId, [article.line])).toMatchObject({ unchanged: 1, deleted: 0, events: 0, events_suppressed: 0 });
    expect(await outboxEvents(store, workspaceId)).toEqual([{ type: 'content.status_updated', data: await store.content.getArticle(workspaceId, article.id) }]);
  });

  it('when an article has neither topic_id nor topic, rejects the file', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    await expectImportRejected(store, workspaceId, [articleLine({ topic: undefined }).line], 'line 1: topic: is required when topic_id is null');
  });

  it('when buyer_stage is not a stage of the API, rejects the file listing the stages', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    await expectImportRejected(store, workspaceId, [articleLine({ buyer_stage: 'retention' }).line], 'line 1: buyer_stage: "retention" is not one of awareness, consideration, decision');
  });

  it('when planned_time is not HH:MM, rejects the file', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const error = await importLines(store, workspaceId, [articleLine({ config: { autowrite: false, planned_time: '9am' } }).line]).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^line 1: config\.planned_time: /);
  });
});

describe('import: agent_task', () => {
  it('when an existing task succeeds, sends agent_task.status_updated with the stored task', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const task = agentTaskLine({ status: 'RUNNING' });
    await importLines(store, workspaceId, [task.line], { events: false });

    const summary = await importLines(store, workspaceId, [changed(task, {
      status: 'SUCCEEDED',
      outputs: { article_id: randomUUID() },
      usage: { input_tokens: 1200, output_tokens: 3400, total_tokens: 4600 },
      execution_duration: 730000,
      ended_at: '2026-03-01T10:14:10.000Z',
    }).line]);

    expect(summary).toMatchObject({ updated: 1, events: 1 });
    const stored = (await store.content.getAgentTask(workspaceId, task.id))!;
    expect(stored).toMatchObject({
      agent_id: '6b0f1f64-4e9c-4a36-9d55-2f7d1c8e9a10',
      agent: { id: '6b0f1f64-4e9c-4a36-9d55-2f7d1c8e9a10', name: 'Article writer', icon: 'pen', short_description: 'Writes an article from an idea' },
      status: 'SUCCEEDED',
      execution_duration: 730000,
      started_at: '2026-03-01T10:02:00.000Z',
      ended_at: '2026-03-01T10:14:10.000Z',
    });
    expect(await outboxEvents(store, workspaceId)).toEqual([{ type: 'agent_task.status_updated', data: stored }]);
    expect(await importLines(store, workspaceId, [changed(task, { status: 'SUCCEEDED', outputs: stored.outputs, usage: stored.usage, execution_duration: 730000, ended_at: '2026-03-01T10:14:10.000Z' }).line]))
      .toMatchObject({ unchanged: 1, deleted: 0, events: 0, events_suppressed: 0 });
  });

  it('when total_tokens is not the sum, or the task ends before it starts, rejects the file', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    await expectImportRejected(store, workspaceId, [agentTaskLine({ usage: { input_tokens: 1, output_tokens: 2, total_tokens: 4 } }).line],
      'line 1: usage.total_tokens: must equal input_tokens + output_tokens (3)');
    await expectImportRejected(store, workspaceId, [agentTaskLine({ ended_at: '2026-03-01T10:00:00.000Z' }).line],
      'line 1: ended_at: may not be before started_at (2026-03-01T10:02:00.000Z)');
  });
});
