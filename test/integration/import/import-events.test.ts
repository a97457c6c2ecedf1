import { describe, expect, it } from 'vitest';
import { importLines } from '../../../src/import/import-ndjson.js';
import { testStoreForThisTest } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import {
  agentTaskLine, articleLine, changed, ideaLine, iqRecordLine, outboxEvents, researchBatchLine, siteLine, topicLine, type Line,
} from '../../support/content-records.js';

/** A record of each type that sends events, arriving already in a final state, and what its event says. */
function finalRecords(): Array<{ name: string; lines: (topicId: string) => Line; event: string; state: (data: Record<string, unknown>) => unknown; expected: unknown }> {
  return [
    { name: 'an article imported as PUBLISHED', lines: () => articleLine({ status: 'PUBLISHED' }), event: 'content.status_updated', state: (d) => d.status, expected: 'PUBLISHED' },
    { name: 'a research batch imported as COMPLETED', lines: (topicId) => researchBatchLine({ topic_id: topicId, status: 'COMPLETED' }), event: 'research_batch.status_updated', state: (d) => d.status, expected: 'COMPLETED' },
    { name: 'an agent task imported as SUCCEEDED', lines: () => agentTaskLine({ status: 'SUCCEEDED', ended_at: '2026-03-01T10:10:00.000Z' }), event: 'agent_task.status_updated', state: (d) => d.status, expected: 'SUCCEEDED' },
    { name: 'a topic imported as COMPLETED', lines: () => topicLine({ stage: 'COMPLETED' }), event: 'topic.status_updated', state: (d) => d.stage, expected: 'COMPLETED' },
    { name: 'a brand record imported as READY', lines: () => iqRecordLine('persona', { stage: 'READY' }), event: 'iq.status_updated', state: (d) => d.stage, expected: 'READY' },
    {
      name: 'a sitemap URL imported with processing completed',
      lines: () => siteLine({ processing: { total: 10, ready: 9, failed: 1, completed: true } }),
      event: 'sitemap_url.status_updated',
      state: (d) => d.processing,
      expected: { total: 10, ready: 9, failed: 1, completed: true },
    },
  ];
}

describe('import: events of records that arrive already in a state', () => {
  for (const record of finalRecords()) {
    it(`when ${record.name}, writes exactly one ${record.event} with the stored record`, async () => {
      const { store } = await testStoreForThisTest();
    const { workspaceId } = await createTestWorkspace(store);
      // The batch's topic comes first, without events, so the only event is the record's own.
      const topic = topicLine();
      await importLines(store, workspaceId, [topic.line], { events: false });
      const line = record.lines(topic.id);

      expect(await importLines(store, workspaceId, [line.line])).toMatchObject({ inserted: 1, events: 1, events_suppressed: 0 });

      const events = await outboxEvents(store, workspaceId);
      expect(events.map((e) => e.type)).toEqual([record.event]);
      const data = events[0]!.data as Record<string, unknown>;
      expect(data.id).toBe(line.id);
      expect(record.state(data)).toEqual(record.expected);
      // Importing it again changes nothing and sends nothing more.
      expect(await importLines(store, workspaceId, [line.line])).toMatchObject({ unchanged: 1, events: 0 });
      expect(await outboxEvents(store, workspaceId)).toHaveLength(1);
    });

    it(`when ${record.name} without events, writes none and counts it suppressed`, async () => {
      const { store } = await testStoreForThisTest();
    const { workspaceId } = await createTestWorkspace(store);
      const topic = topicLine();
      const line = record.lines(topic.id);

      expect(await importLines(store, workspaceId, [topic.line, line.line], { events: false }))
        .toEqual({ records: 2, inserted: 2, updated: 0, unchanged: 0, deleted: 0, events: 0, events_suppressed: 2 });
      expect(await outboxEvents(store, workspaceId)).toEqual([]);
    });
  }

  it('when a new research batch is QUEUED, then moves to PROCESSING, sends nothing; COMPLETED and FAILED are sent', async () => {
    const { store } = await testStoreForThisTest();
    const { workspaceId } = await createTestWorkspace(store);
    const topic = topicLine();
    await importLines(store, workspaceId, [topic.line], { events: false });
    const batch = researchBatchLine({ topic_id: topic.id, status: 'QUEUED' });

    expect(await importLines(store, workspaceId, [batch.line])).toMatchObject({ inserted: 1, events: 0 });
    expect(await importLines(store, workspaceId, [changed(batch, { status: 'PROCESSING' }).line])).toMatchObject({ updated: 1, events: 0 });
    expect(await outboxEvents(store, workspaceId)).toEqual([]);

    expect(await importLines(store, workspaceId, [changed(batch, { status: 'FAILED' }).line])).toMatchObject({ updated: 1, events: 1 });
    expect(await importLines(store, workspaceId, [changed(batch, { status: 'PROCESSING' }).line])).toMatchObject({ updated: 1, events: 0 });
    expect(await importLines(store, workspaceId, [changed(batch, { status: 'COMPLETED' }).line])).toMatchObject({ updated: 1, events: 1 });
    expect((await outboxEvents(store, workspaceId)).map((e) => (e.data as { status: string }).status)).toEqual(['FAILED', 'COMPLETED']);
  });

  it('when a new batch comes before its topic and its ideas, its event names the topic and lists the ideas', async () => {
    const { store } = await testStoreForThisTest();
    const { workspaceId } = await createTestWorkspace(store);
    const topic = topicLine({ name: 'Pricing pages', stage: 'READY' });
    const batch = researchBatchLine({ topic_id: topic.id, status: 'COMPLETED' });
    const idea = ideaLine({ research_batch_id: batch.id, topic_id: topic.id });

    expect(await importLines(store, workspaceId, [batch.line, topic.line, idea.line])).toMatchObject({ inserted: 3, events: 2 });

    const events = await outboxEvents(store, workspaceId);
    expect(events.map((e) => e.type)).toEqual(['research_batch.status_updated', 'topic.status_updated']);
    expect(events[0]!.data).toMatchObject({ topic_name: 'Pricing pages', ideas_count: 1, ideas: [{ id: idea.id }] });
  });

  it('when a file brings a new article and then changes its status, sends both states in file order', async () => {
    const { store } = await testStoreForThisTest();
    const { workspaceId } = await createTestWorkspace(store);
    const article = articleLine({ status: 'DRAFT' });

    const summary = await importLines(store, workspaceId, [article.line, changed(article, { status: 'PROCESSING', title: 'Renamed' }).line]);

    expect(summary).toMatchObject({ inserted: 1, updated: 1, events: 2 });
    expect((await outboxEvents(store, workspaceId)).map((e) => [(e.data as { status: string }).status, (e.data as { title: string }).title])).toEqual([
      ['DRAFT', 'How to get your brand cited by ChatGPT'],
      ['PROCESSING', 'Renamed'],
    ]);
  });

  it('when an import without events changes statuses, writes none and counts each change it did not send', async () => {
    const { store } = await testStoreForThisTest();
    const { workspaceId } = await createTestWorkspace(store);
    const article = articleLine({ status: 'DRAFT' });
    await importLines(store, workspaceId, [article.line], { events: false });

    const summary = await importLines(store, workspaceId, [
      changed(article, { status: 'PROCESSING' }).line,
      changed(article, { status: 'GENERATED' }).line,
    ], { events: false });

    expect(summary).toEqual({ records: 2, inserted: 0, updated: 2, unchanged: 0, deleted: 0, events: 0, events_suppressed: 2 });
    expect(await outboxEvents(store, workspaceId)).toEqual([]);
    expect((await store.content.getArticle(workspaceId, article.id))?.status).toBe('GENERATED');
  });
});
