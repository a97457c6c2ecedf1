import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { pageLine, siteLine, topicLine } from '../../support/content-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';

const server = useTestServer();

describe('GET /api/v1/content-map/pages/{page}', () => {
  it('when the page belongs to the workspace, answers 200 with the whole page', async () => {
    const ws = await createTestWorkspace(server.store);
    const site = siteLine();
    const topic = topicLine();
    const page = pageLine({ site_id: site.id, topic_id: topic.id, status: 'FAILED', updated_at: '2026-03-04T12:00:00.000Z' });
    await importRecords(server.store, ws, [site, topic, page]);

    const res = await getWith(server, ws, `/api/v1/content-map/pages/${page.id}`);

    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        id: page.id,
        url: 'https://www.acme.example/blog/ai-visibility-guide',
        title: 'The complete guide to AI search visibility',
        site_id: site.id,
        topic_id: topic.id,
        status: 'FAILED',
        last_fetched_at: '2026-03-02T08:05:00.000Z',
        created_at: '2026-03-01T10:00:00.000Z',
        updated_at: '2026-03-04T12:00:00.000Z',
      },
    }]);
  });

  it('when the page belongs to another workspace, answers 404 exactly like an unknown id', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const site = siteLine();
    const foreign = pageLine({ site_id: site.id });
    await importRecords(server.store, other, [site, foreign]);

    const crossTenant = await getWith(server, ws, `/api/v1/content-map/pages/${foreign.id}`);
    const unknown = await getWith(server, ws, `/api/v1/content-map/pages/${randomUUID()}`);

    expect([crossTenant.status, crossTenant.body]).toEqual([404, { code: 4040, messages: 'Page not found.', data: null }]);
    expect([unknown.status, unknown.body]).toEqual([crossTenant.status, crossTenant.body]);
  });
});
