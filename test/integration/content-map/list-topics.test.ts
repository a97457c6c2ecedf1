import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { minutesFrom, topicLine } from '../../support/content-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { expectStablePaging } from '../../contract/framework/paging.js';

const server = useTestServer();

async function list(ws: TestWorkspace, query: Record<string, string | number> = {}) {
  return getWith(server, ws, '/api/v1/content-map/topics', query);
}

describe('GET /api/v1/content-map/topics', () => {
  it('when the workspace has topics, answers 200 with every topic oldest first, keywords by volume and totals computed', async () => {
    const ws = await createTestWorkspace(server.store);
    const [first, second] = minutesFrom('2026-03-01T10:00:00.000Z', 2);
    const visibility = topicLine({ name: 'AI search visibility', created_at: second, updated_at: '2026-03-05T09:00:00+02:00' });
    const pricing = topicLine({
      name: 'Pricing pages',
      stage: 'PROCESSING',
      keywords: [{ keyword: 'saas pricing page', msv: 320, kd: 41 }, { keyword: 'pricing page examples', msv: 320, kd: 20 }, { keyword: 'tiered pricing', msv: 90, kd: 35 }],
      msv_badge: 'LOW',
      kd_badge: 'MEDIUM',
      coverage: 0,
      created_at: first,
    });
    await importRecords(server.store, ws, [visibility, pricing]);

    const res = await list(ws);

    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        items: [
          {
            id: pricing.id,
            name: 'Pricing pages',
            stage: 'PROCESSING',
            keywords: [
              { keyword: 'pricing page examples', msv: 320, kd: 20 },
              { keyword: 'saas pricing page', msv: 320, kd: 41 },
              { keyword: 'tiered pricing', msv: 90, kd: 35 },
            ],
            totalMsv: 730,
            msvBadge: 'LOW',
            avgKd: 32,
            kdBadge: 'MEDIUM',
            coverage: 0,
            createdAt: first,
            updatedAt: first,
          },
          {
            id: visibility.id,
            name: 'AI search visibility',
            stage: 'READY',
            keywords: [
              { keyword: 'ai search visibility', msv: 2400, kd: 38 },
              { keyword: 'chatgpt brand mentions', msv: 880, kd: 22 },
            ],
            totalMsv: 3280,
            msvBadge: 'MEDIUM',
            avgKd: 30,
            kdBadge: 'LOW',
            coverage: 45,
            createdAt: second,
            updatedAt: '2026-03-05T07:00:00.000Z',
          },
        ],
        next_cursor: null,
      },
    }]);
  });

  it('when stage is given, answers only the topics in that stage', async () => {
    const ws = await createTestWorkspace(server.store);
    const times = minutesFrom('2026-03-01T10:00:00.000Z', 3);
    const topics = [
      topicLine({ stage: 'READY', created_at: times[0] }),
      topicLine({ stage: 'COMPLETED', created_at: times[1] }),
      topicLine({ stage: 'READY', created_at: times[2] }),
    ];
    await importRecords(server.store, ws, topics);

    const res = await list(ws, { stage: 'READY' });

    expect(res.status).toBe(200);
    expect((res.body as { data: { items: Array<{ id: string }> } }).data.items.map((t) => t.id)).toEqual([topics[0]!.id, topics[2]!.id]);
  });

  it('when the workspace has no topic, answers 200 with an empty page', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await list(ws);
    expect([res.status, res.body]).toEqual([200, { code: 2000, messages: 'OK', data: { items: [], next_cursor: null } }]);
  });

  it('when another workspace has topics, never lists them', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const mine = topicLine();
    await importRecords(server.store, ws, [mine]);
    await importRecords(server.store, other, [topicLine(), topicLine()]);

    const res = await list(ws);

    expect((res.body as { data: { items: Array<{ id: string }> } }).data.items.map((t) => t.id)).toEqual([mine.id]);
  });

  it('when paged with limit 1, 2 and 3, answers every topic once in one order and refuses tampered or foreign cursors', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    // Equal creation times: the id breaks the tie.
    const topics = Array.from({ length: 5 }, () => topicLine({ created_at: '2026-03-01T10:00:00.000Z' }));
    await importRecords(server.store, ws, topics);
    await importRecords(server.store, other, [topicLine(), topicLine()]);

    await expectStablePaging({
      call: (spec) => send(server.url, spec, ws.key),
      request: { path: '/api/v1/content-map/topics' },
      ids: topics.map((t) => t.id),
      foreign: { path: '/api/v1/content-map/topics', key: other.key },
    });
  });

  it('when a cursor is reused with another stage filter, answers 422 naming cursor', async () => {
    const ws = await createTestWorkspace(server.store);
    await importRecords(server.store, ws, [topicLine(), topicLine()]);
    const first = await list(ws, { limit: 1 });
    const cursor = (first.body as { data: { next_cursor: string } }).data.next_cursor;

    const res = await list(ws, { limit: 1, cursor, stage: 'READY' });

    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
    expect((res.body as { messages: string }).messages).toContain('cursor');
  });

  it('when stage is not a topic stage, answers 422 naming stage', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await list(ws, { stage: 'DONE' });
    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
    expect((res.body as { messages: string }).messages).toContain('stage');
  });
});
