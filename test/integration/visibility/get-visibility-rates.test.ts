import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { promptLine, snapshotLine } from '../../support/import-records.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { EMPTY_PLATFORMS, getWith, importRecords } from '../../support/visibility.js';

// Today is 2026-11-22 (UTC): with range=7d the current period is 11-16..11-22 and the previous
// one 11-09..11-15.
const NOW = new Date('2026-11-22T23:59:59.999Z');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: () => NOW });
});
afterAll(async () => {
  await server.close();
});

type Platform = 'chatgpt' | 'google_ai_overview' | 'perplexity' | 'gemini' | 'grok' | 'claude';

function snap(promptId: string, at: string, platform: Platform, flags: 'mc' | 'm' | 'c' | '') {
  return snapshotLine({ prompt_id: promptId, collected_at: at, platform, mentioned: flags.includes('m'), cited: flags.includes('c') });
}

function platform(name: Platform, total: number, mentioned: number, mentionRate: number | null, cited: number, citedRate: number | null) {
  return { platform: name, total, mentioned: { count: mentioned, rate: mentionRate }, cited: { count: cited, rate: citedRate } };
}

async function seedTwoPrompts(ws: TestWorkspace): Promise<{ p1: string; p2: string }> {
  const p1 = promptLine();
  const p2 = promptLine();
  await importRecords(server.store, ws, [
    p1, p2,
    snap(p1.id, '2026-11-22T08:00:00.000Z', 'chatgpt', 'mc'),
    snap(p1.id, '2026-11-22T09:00:00.000Z', 'chatgpt', 'm'),
    snap(p2.id, '2026-11-22T10:00:00.000Z', 'perplexity', ''),
    snap(p2.id, '2026-11-20T10:00:00.000Z', 'perplexity', 'mc'),
    snap(p1.id, '2026-11-12T10:00:00.000Z', 'chatgpt', 'm'), // previous period
    snap(p2.id, '2026-11-10T10:00:00.000Z', 'gemini', ''), // previous period
    snap(p1.id, '2026-11-08T23:59:59.999Z', 'claude', 'mc'), // before both periods
    snap(p1.id, '2026-11-23T00:00:00.000Z', 'chatgpt', 'mc'), // after today
  ]);
  return { p1: p1.id, p2: p2.id };
}

describe('GET /api/v1/visibility/rates', () => {
  it('when two prompts have answers in both periods, answers their combined rates, trend and platforms', async () => {
    const ws = createTestWorkspace(server.store);
    await seedTwoPrompts(ws);
    const res = await getWith(server, ws, '/api/v1/visibility/rates', { range: '7d' });
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        range: '7d',
        mention_rate: { current: 0.75, previous: 0.5, delta: 0.25 },
        citation_rate: { current: 0.5, previous: 0, delta: 0.5 },
        trend_series: {
          mention: [{ date: '2026-11-20', rate: 1 }, { date: '2026-11-22', rate: 0.6667 }],
          citation: [{ date: '2026-11-20', rate: 1 }, { date: '2026-11-22', rate: 0.3333 }],
        },
        platforms: [
          platform('chatgpt', 2, 2, 1, 1, 0.5),
          platform('google_ai_overview', 0, 0, null, 0, null),
          platform('perplexity', 2, 1, 0.5, 1, 0.5),
          platform('gemini', 0, 0, null, 0, null),
          platform('grok', 0, 0, null, 0, null),
          platform('claude', 0, 0, null, 0, null),
        ],
        total_snapshots: 4,
      },
    }]);
  });

  it('when range is omitted, reports 30d, which takes in the answers of both 7-day periods', async () => {
    const ws = createTestWorkspace(server.store);
    await seedTwoPrompts(ws);
    const data = (await getWith(server, ws, '/api/v1/visibility/rates')).body as { data: { range: string; total_snapshots: number; mention_rate: unknown } };
    // 10-24..11-22: every snapshot but the one after today.
    expect(data.data).toMatchObject({ range: '30d', total_snapshots: 7, mention_rate: { current: 0.7143, previous: null, delta: null } });
  });

  it('when the workspace has one prompt, answers exactly the rates, trend and platforms of that prompt\'s analytics', async () => {
    const ws = createTestWorkspace(server.store);
    const p = promptLine();
    await importRecords(server.store, ws, [
      p,
      snap(p.id, '2026-11-22T08:00:00.000Z', 'grok', 'mc'),
      snap(p.id, '2026-11-21T08:00:00.000Z', 'claude', 'm'),
      snap(p.id, '2026-11-21T09:00:00.000Z', 'claude', ''),
      snap(p.id, '2026-11-14T08:00:00.000Z', 'grok', 'c'),
    ]);
    for (const range of ['7d', '30d', '90d']) {
      const rates = ((await getWith(server, ws, '/api/v1/visibility/rates', { range })).body as { data: Record<string, unknown> }).data;
      const analytics = ((await getWith(server, ws, `/api/v1/visibility/prompts/${p.id}`, { range })).body as {
        data: { overview: Record<string, unknown>; platforms: unknown; total_snapshots: number };
      }).data;
      expect(rates).toEqual({
        range,
        mention_rate: analytics.overview.mention_rate,
        citation_rate: analytics.overview.citation_rate,
        trend_series: analytics.overview.trend_series,
        platforms: analytics.platforms,
        total_snapshots: analytics.total_snapshots,
      });
    }
  });

  it('when the workspace has no answers, answers null rates, an empty trend and six empty platforms', async () => {
    const ws = createTestWorkspace(server.store);
    const res = await getWith(server, ws, '/api/v1/visibility/rates', { range: '90d' });
    expect(res.body).toEqual({
      code: 2000,
      messages: 'OK',
      data: {
        range: '90d',
        mention_rate: { current: null, previous: null, delta: null },
        citation_rate: { current: null, previous: null, delta: null },
        trend_series: { mention: [], citation: [] },
        platforms: EMPTY_PLATFORMS,
        total_snapshots: 0,
      },
    });
  });

  it('when another workspace has answers, counts none of them', async () => {
    const ws = createTestWorkspace(server.store);
    const other = createTestWorkspace(server.store);
    await seedTwoPrompts(other);
    const res = await getWith(server, ws, '/api/v1/visibility/rates', { range: '7d' });
    expect((res.body as { data: { total_snapshots: number; platforms: unknown } }).data).toMatchObject({ total_snapshots: 0, platforms: EMPTY_PLATFORMS });
  });

  it('when range is not one of 7d, 30d, 90d, answers 422 (4220) naming it', async () => {
    const ws = createTestWorkspace(server.store);
    const res = await getWith(server, ws, '/api/v1/visibility/rates', { range: '1y' });
    expect([res.status, (res.body as { code: number; messages: string }).code]).toEqual([422, 4220]);
    expect((res.body as { messages: string }).messages).toContain('query.range');
  });
});
