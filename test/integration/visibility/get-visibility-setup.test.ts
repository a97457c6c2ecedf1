import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { competitorLine, promptLine, snapshotLine } from '../../support/import-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { profileLine } from '../../support/workspace-records.js';

const server = useTestServer();

describe('GET /api/v1/visibility/setup', () => {
  it('when the workspace has a profile, competitors, prompts and answers, answers 200 with all of them counted', async () => {
    const ws = await createTestWorkspace(server.store);
    const p1 = promptLine({ status: 'ACTIVE' });
    const p2 = promptLine({ status: 'ACTIVE' });
    await importRecords(server.store, ws, [
      profileLine({
        brand_name: 'Acme', domains: ['acme.example', 'WWW.acme-blog.example'],
        tracked_platforms: ['perplexity', 'chatgpt', 'claude'], collection_cadence: 'hourly',
      }),
      competitorLine({ name: 'Globex' }),
      competitorLine({ name: 'Initech' }),
      competitorLine({ name: 'Umbrella' }),
      p1, p2,
      promptLine({ status: 'PENDING' }),
      promptLine({ status: 'GENERATING' }),
      snapshotLine({ prompt_id: p1.id, collected_at: '2026-11-22T07:42:10.512Z' }),
      snapshotLine({ prompt_id: p2.id, collected_at: '2026-11-22T09:42:10.512+02:00' }),
      snapshotLine({ prompt_id: p2.id, collected_at: '2026-11-20T07:00:00.000Z' }),
    ]);
    const res = await getWith(server, ws, '/api/v1/visibility/setup');
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        brand_name: 'Acme',
        domains: ['acme.example', 'acme-blog.example'],
        tracked_platforms: ['chatgpt', 'perplexity', 'claude'],
        collection_cadence: 'hourly',
        competitor_count: 3,
        prompt_counts: { total: 4, pending: 1, generating: 1, active: 2 },
        last_collected_at: '2026-11-22T07:42:10.512Z',
      },
    }]);
  });

  it('when nothing is on record yet, answers empty values, zero counts and no collection time', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await getWith(server, ws, '/api/v1/visibility/setup');
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        brand_name: null,
        domains: [],
        tracked_platforms: [],
        collection_cadence: null,
        competitor_count: 0,
        prompt_counts: { total: 0, pending: 0, generating: 0, active: 0 },
        last_collected_at: null,
      },
    }]);
  });

  it('when another workspace has prompts and competitors, counts none of them', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const p = promptLine();
    await importRecords(server.store, other, [competitorLine(), p, snapshotLine({ prompt_id: p.id })]);
    const res = await getWith(server, ws, '/api/v1/visibility/setup');
    expect((res.body as { data: unknown }).data).toMatchObject({
      competitor_count: 0,
      prompt_counts: { total: 0, pending: 0, generating: 0, active: 0 },
      last_collected_at: null,
    });
  });

  it('when the subscription is past due, answers 402 (1916)', async () => {
    const ws = await createTestWorkspace(server.store, { subscription: 'past_due' });
    const res = await getWith(server, ws, '/api/v1/visibility/setup');
    expect([res.status, (res.body as { code: number }).code]).toEqual([402, 1916]);
  });
});
