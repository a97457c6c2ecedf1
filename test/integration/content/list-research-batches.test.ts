import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { outboxEvents, RESEARCH_BATCH_AS_READ } from '../../support/content-records.js';
import { expectListPagesStably, listedIds } from '../../support/record-lists.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith } from '../../support/visibility.js';
import { BATCHES, importResearchBatches } from './research-batches-fixture.js';

const server = useTestServer();

const ids = (ws: TestWorkspace, query: Record<string, string | number>) => listedIds(server, ws, BATCHES, query);

describe('GET /api/v1/content/research-batches', () => {
  it('when the workspace has batches, answers each oldest first exactly as its event carries it, ideas included', async () => {
    const ws = await createTestWorkspace(server.store);
    const { visibility, batches: list, ideas } = await importResearchBatches(server, ws);

    const res = await getWith(server, ws, BATCHES, { limit: 1 });

    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        items: [{
          ...RESEARCH_BATCH_AS_READ,
          id: list[0]!.id,
          ideas_count: 2,
          status: 'COMPLETED',
          topic_id: visibility.id,
          topic_name: 'AI search visibility',
          buyer_stage: 'consideration',
          ideas: [
            { id: ideas[0]!.id, title: 'Which pages do AI assistants cite, and why?', keywords: ['ai citations', 'llm sources'], buyer_stage: 'awareness' },
            { id: ideas[1]!.id, title: 'Second idea', keywords: ['ai citations', 'llm sources'], buyer_stage: 'awareness' },
          ],
          createdAt: '2026-03-01T10:00:00.000Z',
          updatedAt: '2026-03-01T10:00:00.000Z',
        }],
        next_cursor: expect.any(String),
      },
    }]);
    // A receiver that missed the batch's event reads the same data here.
    const event = (await outboxEvents(server.store, ws.workspaceId)).find((e) => (e.data as { id: string }).id === list[0]!.id);
    expect(event?.data).toEqual((res.body as { data: { items: unknown[] } }).data.items[0]);
  });

  it('when status, topic and buyer_stage are given, answers the batches matching all of them', async () => {
    const ws = await createTestWorkspace(server.store);
    const { visibility, pricing, batches: list } = await importResearchBatches(server, ws);

    expect(await ids(ws, {})).toEqual(list.map((b) => b.id));
    expect(await ids(ws, { status: 'COMPLETED' })).toEqual([list[0]!.id, list[2]!.id]);
    expect(await ids(ws, { topic: visibility.id })).toEqual([list[0]!.id, list[1]!.id]);
    expect(await ids(ws, { buyer_stage: 'decision', topic: visibility.id })).toEqual([list[1]!.id]);
    expect(await ids(ws, { status: 'FAILED' })).toEqual([]);
    expect(await ids(ws, { topic: pricing.id, status: 'COMPLETED' })).toEqual([list[2]!.id]);
  });

  it('when paged with limit 1, 2 and 3, answers every batch once in one order and refuses tampered or foreign cursors', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const { batches: list } = await importResearchBatches(server, ws);
    await importResearchBatches(server, other);

    await expectListPagesStably(server, BATCHES, ws, other, list.map((b) => b.id));
  });
});
