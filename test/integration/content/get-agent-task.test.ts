import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { expectNotFound } from '../../support/record-lists.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith } from '../../support/visibility.js';
import { importAgentTasks, RESEARCHER, TASKS } from './agent-tasks-fixture.js';

const server = useTestServer();

describe('GET /api/v1/content/agent-tasks/{agent_task}', () => {
  it('when the task belongs to the workspace, answers it; another workspace\'s or an unknown id is 404', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const list = await importAgentTasks(server, ws);
    const foreign = await importAgentTasks(server, other);

    const res = await getWith(server, ws, `${TASKS}/${list[2]!.id}`);
    expect([res.status, (res.body as { data: unknown }).data]).toEqual([200, await server.store.content.getAgentTask(ws.workspaceId, list[2]!.id)]);
    expect((res.body as { data: { status: string; agent: unknown } }).data).toMatchObject({ status: 'QUEUED', agent: RESEARCHER });

    await expectNotFound(server, ws, TASKS, [foreign[0]!.id, randomUUID()], 'Agent task');
  });
});
