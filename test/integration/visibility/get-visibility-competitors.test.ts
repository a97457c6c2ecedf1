import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { competitorLine, promptLine, snapshotLine } from '../../support/import-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { profileLine } from '../../support/workspace-records.js';

// Today is 2026-11-22 (UTC): with range=7d the current period is 11-16..11-22 and the previous
// one 11-09..11-15.
const NOW = new Date('2026-11-22T12:00:00.000Z');

const server = useTestServer({ now: () => NOW });

function snap(promptId: string, at: string, mentioned: boolean, competitors: string[]) {
  return snapshotLine({ prompt_id: promptId, collected_at: at, mentioned, competitors });
}

describe('GET /api/v1/visibility/competitors', () => {
  it('when the brand and competitors are named in both periods, answers each row\'s mentions, rates and shares of voice with deltas', async () => {
    const ws = await createTestWorkspace(server.store);
    const globex = competitorLine({ name: 'Globex', domain: 'globex.example' });
    const initech = competitorLine({ name: 'Initech', domain: 'initech.example' });
    const umbrella = competitorLine({ name: 'Umbrella', domain: 'umbrella.example' });
    const p1 = promptLine();
    const p2 = promptLine();
    await importRecords(server.store, ws, [
      profileLine({ brand_name: 'Acme', domains: ['acme.example', 'acme-blog.example'] }),
      globex, initech, umbrella, p1, p2,
      // Current period: 4 answers; the brand is named in 2, Globex in 3, Initech in 1.
      snap(p1.id, '2026-11-22T08:00:00.000Z', true, ['Globex', 'initech']),
      snap(p1.id, '2026-11-21T08:00:00.000Z', false, ['GLOBEX']),
      snap(p2.id, '2026-11-18T08:00:00.000Z', true, []),
      snap(p2.id, '2026-11-16T00:00:00.000Z', false, ['Globex']),
      // Previous period: 2 answers; the brand is named in both, Initech in 1.
      snap(p1.id, '2026-11-15T23:59:59.999Z', true, ['Initech']),
      snap(p2.id, '2026-11-09T00:00:00.000Z', true, []),
      // Outside both periods.
      snap(p2.id, '2026-11-08T00:00:00.000Z', true, ['Umbrella']),
    ]);
    const res = await getWith(server, ws, '/api/v1/visibility/competitors', { range: '7d' });
    // Shares: current 6 mentions in all (3 + 2 + 1 + 0), previous 3 (0 + 2 + 1 + 0).
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        range: '7d',
        total_snapshots: 4,
        competitors: [
          {
            id: globex.id, name: 'Globex', domain: 'globex.example', is_brand: false, mentions: 3,
            mention_rate: 0.75, mention_rate_delta: 0.75, share_of_voice: 0.5, share_of_voice_delta: 0.5,
          },
          {
            id: null, name: 'Acme', domain: 'acme.example', is_brand: true, mentions: 2,
            mention_rate: 0.5, mention_rate_delta: -0.5, share_of_voice: 0.3333, share_of_voice_delta: -0.3333,
          },
          {
            id: initech.id, name: 'Initech', domain: 'initech.example', is_brand: false, mentions: 1,
            mention_rate: 0.25, mention_rate_delta: -0.25, share_of_voice: 0.1667, share_of_voice_delta: -0.1667,
          },
          {
            id: umbrella.id, name: 'Umbrella', domain: 'umbrella.example', is_brand: false, mentions: 0,
            mention_rate: 0, mention_rate_delta: 0, share_of_voice: 0, share_of_voice_delta: 0,
          },
        ],
      },
    }]);
  });

  it('when mentions tie, orders by name in code-point order, the brand first on an equal name', async () => {
    const ws = await createTestWorkspace(server.store);
    const beta = competitorLine({ name: 'beta' });
    const alpha = competitorLine({ name: 'Zeta' });
    const same = competitorLine({ name: 'Acme' });
    const p = promptLine();
    await importRecords(server.store, ws, [profileLine({ brand_name: 'Acme' }), beta, alpha, same, p]);
    const res = await getWith(server, ws, '/api/v1/visibility/competitors', { range: '7d' });
    const rows = (res.body as { data: { competitors: Array<{ name: string; is_brand: boolean }> } }).data.competitors;
    expect(rows.map((r) => [r.name, r.is_brand])).toEqual([['Acme', true], ['Acme', false], ['Zeta', false], ['beta', false]]);
  });

  it('when nothing is on record, answers only the brand row, named after the workspace, with null rates', async () => {
    const ws = await createTestWorkspace(server.store, { name: 'Bare Workspace' });
    const res = await getWith(server, ws, '/api/v1/visibility/competitors');
    expect(res.body).toEqual({
      code: 2000,
      messages: 'OK',
      data: {
        range: '30d',
        total_snapshots: 0,
        competitors: [{
          id: null, name: 'Bare Workspace', domain: null, is_brand: true, mentions: 0,
          mention_rate: null, mention_rate_delta: null, share_of_voice: null, share_of_voice_delta: null,
        }],
      },
    });
  });

  it('when another workspace has competitors and answers, shows none of them', async () => {
    const ws = await createTestWorkspace(server.store, { name: 'Mine' });
    const other = await createTestWorkspace(server.store);
    const p = promptLine();
    await importRecords(server.store, other, [competitorLine({ name: 'Globex' }), p, snap(p.id, '2026-11-22T08:00:00.000Z', true, ['Globex'])]);
    const rows = ((await getWith(server, ws, '/api/v1/visibility/competitors')).body as { data: { competitors: unknown[] } }).data.competitors;
    expect(rows).toEqual([expect.objectContaining({ name: 'Mine', is_brand: true, mentions: 0 })]);
  });
});
