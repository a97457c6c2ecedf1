import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { expectNotFound } from '../../support/record-lists.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith } from '../../support/visibility.js';
import { BATCHES, importResearchBatches } from './research-batches-fixture.js';

const server = useTestServer();

describe('GET /api/v1/content/research-batches/{research_batch}', () => {
  it('when the batch belongs to the workspace, answers it with its ideas; another workspace\'s or an unknown id is 404', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const { batches: list } = await importResearchBatches(server, ws);
    const foreign = await importResearchBatches(server, other);

    const res = await getWith(server, ws, `${BATCHES}/${list[0]!.id}`);
    expect(res.status).toBe(200);
    expect((res.body as { data: unknown }).data).toEqual(await server.store.content.getResearchBatch(ws.workspaceId, list[0]!.id));
    expect((res.body as { data: { ideas_count: number } }).data.ideas_count).toBe(2);

    await expectNotFound(server, ws, BATCHES, [foreign.batches[0]!.id, randomUUID()], 'Research batch');
  });
});
