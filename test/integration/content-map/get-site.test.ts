import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { siteLine, topicLine } from '../../support/content-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';

const server = useTestServer();

describe('GET /api/v1/content-map/sites/{site}', () => {
  it('when the site belongs to the workspace, answers 200 with the whole site', async () => {
    const ws = await createTestWorkspace(server.store);
    const site = siteLine({ processing: { total: 128, ready: 125, failed: 3, completed: true }, updated_at: '2026-03-03T00:00:00.000Z' });
    await importRecords(server.store, ws, [site]);

    const res = await getWith(server, ws, `/api/v1/content-map/sites/${site.id}`);

    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        id: site.id,
        url: 'https://www.acme.example/sitemap.xml',
        type: 'sitemap',
        urlCount: 128,
        lastFetchedAt: '2026-03-02T08:00:00.000Z',
        createdAt: '2026-03-01T10:00:00.000Z',
        updatedAt: '2026-03-03T00:00:00.000Z',
        processing: { total: 128, ready: 125, failed: 3, completed: true },
      },
    }]);
  });

  it('when the site belongs to another workspace, answers 404 exactly like an unknown id', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const foreign = siteLine();
    await importRecords(server.store, other, [foreign]);

    const crossTenant = await getWith(server, ws, `/api/v1/content-map/sites/${foreign.id}`);
    const unknown = await getWith(server, ws, `/api/v1/content-map/sites/${randomUUID()}`);

    expect([crossTenant.status, crossTenant.body]).toEqual([404, { code: 4040, messages: 'Site not found.', data: null }]);
    expect([unknown.status, unknown.body]).toEqual([crossTenant.status, crossTenant.body]);
  });

  it('when the id is a topic of the workspace, answers 404', async () => {
    const ws = await createTestWorkspace(server.store);
    const topic = topicLine();
    await importRecords(server.store, ws, [topic]);
    const res = await getWith(server, ws, `/api/v1/content-map/sites/${topic.id}`);
    expect([res.status, res.body]).toEqual([404, { code: 4040, messages: 'Site not found.', data: null }]);
  });
});
