import type { TestWorkspace } from '../../support/accounts.js';
import { ideaLine, minutesFrom, researchBatchLine, topicLine } from '../../support/content-records.js';
import type { TestServer } from '../../support/test-server.js';
import { importRecords } from '../../support/visibility.js';

// The research batches the list and the by-id read are tested over (list-research-batches.test.ts, get-research-batch.test.ts).
export const BATCHES = '/api/v1/content/research-batches';

/** Two topics and three batches created in this order; the first batch has two ideas. */
export async function importResearchBatches(server: TestServer, ws: TestWorkspace) {
  const visibility = topicLine({ name: 'AI search visibility' });
  const pricing = topicLine({ name: 'Pricing' });
  const times = minutesFrom('2026-03-01T10:00:00.000Z', 3);
  const list = [
    researchBatchLine({ topic_id: visibility.id, status: 'COMPLETED', buyer_stage: 'consideration', created_at: times[0] }),
    researchBatchLine({ topic_id: visibility.id, status: 'PROCESSING', buyer_stage: 'decision', created_at: times[1] }),
    researchBatchLine({ topic_id: pricing.id, status: 'COMPLETED', buyer_stage: 'decision', created_at: times[2] }),
  ];
  const ideas = [
    ideaLine({ research_batch_id: list[0]!.id, topic_id: visibility.id, created_at: '2026-03-01T11:00:00.000Z' }),
    ideaLine({ research_batch_id: list[0]!.id, topic_id: visibility.id, title: 'Second idea', created_at: '2026-03-01T11:01:00.000Z' }),
  ];
  await importRecords(server.store, ws, [visibility, pricing, ...list, ...ideas]);
  return { visibility, pricing, batches: list, ideas };
}
