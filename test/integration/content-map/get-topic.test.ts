import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { topicLine } from '../../support/content-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';

const server = useTestServer();

describe('GET /api/v1/content-map/topics/{topic}', () => {
  it('when the topic belongs to the workspace, answers 200 with the whole topic', async () => {
    const ws = await createTestWorkspace(server.store);
    const topic = topicLine({ name: 'Answer engine optimisation', stage: 'COMPLETED', keywords: [], coverage: 100, created_at: '2026-04-01T00:00:00Z' });
    await importRecords(server.store, ws, [topic]);

    const res = await getWith(server, ws, `/api/v1/content-map/topics/${topic.id}`);

    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        id: topic.id,
        name: 'Answer engine optimisation',
        stage: 'COMPLETED',
        keywords: [],
        totalMsv: 0,
        msvBadge: 'MEDIUM',
        avgKd: 0,
        kdBadge: 'LOW',
        coverage: 100,
        createdAt: '2026-04-01T00:00:00.000Z',
        updatedAt: '2026-04-01T00:00:00.000Z',
      },
    }]);
  });

  it('when the topic belongs to another workspace, answers 404 exactly like an unknown id', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const foreign = topicLine();
    await importRecords(server.store, other, [foreign]);

    const crossTenant = await getWith(server, ws, `/api/v1/content-map/topics/${foreign.id}`);
    const unknown = await getWith(server, ws, `/api/v1/content-map/topics/${randomUUID()}`);

    expect([crossTenant.status, crossTenant.body]).toEqual([404, { code: 4040, messages: 'Topic not found.', data: null }]);
    expect([unknown.status, unknown.body]).toEqual([crossTenant.status, crossTenant.body]);
  });

  it('when the id is another kind of record of the workspace, answers 404', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await getWith(server, ws, `/api/v1/content-map/topics/${ws.workspaceId}`);
    expect([res.status, res.body]).toEqual([404, { code: 4040, messages: 'Topic not found.', data: null }]);
  });

  it('when the id is not a UUID, answers 422', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await getWith(server, ws, '/api/v1/content-map/topics/not-a-uuid');
    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
  });
});
