import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { outboxEvents } from '../../support/content-records.js';
import { expectListPagesStably, listedIds } from '../../support/record-lists.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith } from '../../support/visibility.js';
import { importAgentTasks, RESEARCHER, TASKS } from './agent-tasks-fixture.js';

const server = useTestServer();

const ids = (ws: TestWorkspace, query: Record<string, string | number>) => listedIds(server, ws, TASKS, query);

describe('GET /api/v1/content/agent-tasks', () => {
  it('when the workspace has tasks, answers each oldest first exactly as its event carries it', async () => {
    const ws = await createTestWorkspace(server.store);
    const list = await importAgentTasks(server, ws);

    const res = await getWith(server, ws, TASKS, { limit: 1 });

    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        items: [{
          id: list[0]!.id,
          agent_id: '6b0f1f64-4e9c-4a36-9d55-2f7d1c8e9a10',
          agent: { id: '6b0f1f64-4e9c-4a36-9d55-2f7d1c8e9a10', name: 'Article writer', icon: 'pen', short_description: 'Writes an article from an idea' },
          name: 'Write: How to get your brand cited by ChatGPT',
          status: 'SUCCEEDED',
          inputs: { idea_title: 'How to get your brand cited by ChatGPT' },
          outputs: list[0]!.record.outputs,
          usage: { input_tokens: 1200, output_tokens: 3400, total_tokens: 4600 },
          execution_duration: 510_000,
          started_at: '2026-03-01T10:00:30.000Z',
          ended_at: '2026-03-01T10:09:00.000Z',
          created_at: '2026-03-01T10:00:00.000Z',
          // Without an update time of its own, a task last changed when it ended.
          updated_at: '2026-03-01T10:09:00.000Z',
        }],
        next_cursor: expect.any(String),
      },
    }]);
    const event = (await outboxEvents(server.store, ws.workspaceId)).find((e) => (e.data as { id: string }).id === list[0]!.id);
    expect(event?.data).toEqual((res.body as { data: { items: unknown[] } }).data.items[0]);
  });

  it('when status and agent are given, answers the tasks matching both', async () => {
    const ws = await createTestWorkspace(server.store);
    const list = await importAgentTasks(server, ws);

    expect(await ids(ws, {})).toEqual(list.map((t) => t.id));
    expect(await ids(ws, { status: 'RUNNING' })).toEqual([list[1]!.id]);
    expect(await ids(ws, { agent: RESEARCHER.id })).toEqual([list[2]!.id]);
    expect(await ids(ws, { agent: RESEARCHER.id, status: 'RUNNING' })).toEqual([]);
    expect(await ids(ws, { agent: randomUUID() })).toEqual([]);
  });

  it('when paged with limit 1, 2 and 3, answers every task once in one order and refuses tampered or foreign cursors', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const list = await importAgentTasks(server, ws);
    await importAgentTasks(server, other);

    await expectListPagesStably(server, TASKS, ws, other, list.map((t) => t.id));
  });
});
