import { randomUUID } from 'node:crypto';
import type { TestWorkspace } from '../../support/accounts.js';
import { agentTaskLine, minutesFrom } from '../../support/content-records.js';
import type { TestServer } from '../../support/test-server.js';
import { importRecords } from '../../support/visibility.js';

// The agent tasks the list and the by-id read are tested over (list-agent-tasks.test.ts, get-agent-task.test.ts).
export const TASKS = '/api/v1/content/agent-tasks';

export const RESEARCHER = { id: '0b9e7d3c-1f2a-4c5b-8d6e-7f8091a2b3c4', name: 'Researcher', icon: 'search', short_description: 'Finds ideas' };

/** Three tasks created in this order: a finished writer task, a running writer task, a queued researcher task. */
export async function importAgentTasks(server: TestServer, ws: TestWorkspace) {
  const times = minutesFrom('2026-03-01T10:00:00.000Z', 3);
  const list = [
    agentTaskLine({
      status: 'SUCCEEDED', created_at: times[0], started_at: '2026-03-01T10:00:30.000Z', ended_at: '2026-03-01T10:09:00.000Z',
      outputs: { article_id: randomUUID() }, usage: { input_tokens: 1200, output_tokens: 3400, total_tokens: 4600 }, execution_duration: 510_000,
    }),
    agentTaskLine({ status: 'RUNNING', created_at: times[1], started_at: '2026-03-01T10:02:00.000Z' }),
    agentTaskLine({ status: 'QUEUED', agent: RESEARCHER, created_at: times[2], started_at: null }),
  ];
  await importRecords(server.store, ws, list);
  return list;
}
