import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { promptLine, snap } from '../../support/import-records.js';
import { useTestServer } from '../../support/test-server.js';
import { EMPTY_PLATFORMS, getWith, importRecords, platformRow } from '../../support/visibility.js';

// Today is 2026-11-22 (UTC): with range=7d the current period is 11-16..11-22 and the previous
// one 11-09..11-15.
const NOW = new Date('2026-11-22T23:59:59.999Z');

const server = useTestServer({ now: () => NOW });

const NO_COUNTS = { current: { hits: 0, total: 0 }, previous: { hits: 0, total: 0 } };

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
    const ws = await createTestWorkspace(server.store);
    await seedTwoPrompts(ws);
    const res = await getWith(server, ws, '/api/v1/visibility/rates', { range: '7d' });
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        range: '7d',
        // Fisher over 6 snapshots (C(6,4) = 15 tables). Mentions 3 of 4 against 1 of 2: weights
        // C(4,k)·C(2,4−k) = 6, 8, 1 for k = 2..4, the observed 8 is the likeliest, p = 1.
        // Citations 2 of 4 against 0 of 2: C(2,k)·C(4,4−k) = 1, 8, 6 for k = 0..2; p = (1 + 6)/15.
        mention_rate: {
          current: 0.75, previous: 0.5, delta: 0.25,
          counts: { current: { hits: 3, total: 4 }, previous: { hits: 1, total: 2 } },
          significance: { p_value: 1, significant: false },
        },
        citation_rate: {
          current: 0.5, previous: 0, delta: 0.5,
          counts: { current: { hits: 2, total: 4 }, previous: { hits: 0, total: 2 } },
          significance: { p_value: 0.4667, significant: false },
        },
        trend_series: {
          mention: [{ date: '2026-11-20', rate: 1 }, { date: '2026-11-22', rate: 0.6667 }],
          citation: [{ date: '2026-11-20', rate: 1 }, { date: '2026-11-22', rate: 0.3333 }],
        },
        platforms: [
          platformRow('chatgpt', 2, 2, 1, 1, 0.5),
          platformRow('google_ai_overview', 0, 0, null, 0, null),
          platformRow('perplexity', 2, 1, 0.5, 1, 0.5),
          platformRow('gemini', 0, 0, null, 0, null),
          platformRow('grok', 0, 0, null, 0, null),
          platformRow('claude', 0, 0, null, 0, null),
        ],
        total_snapshots: 4,
      },
    }]);
  });

  it('when range is omitted, reports 30d, which takes in the answers of both 7-day periods', async () => {
    const ws = await createTestWorkspace(server.store);
    await seedTwoPrompts(ws);
    const data = (await getWith(server, ws, '/api/v1/visibility/rates')).body as { data: { range: string; total_snapshots: number; mention_rate: unknown } };
    // 10-24..11-22: every snapshot but the one after today.
    expect(data.data).toMatchObject({
      range: '30d',
      total_snapshots: 7,
      mention_rate: {
        current: 0.7143, previous: null, delta: null,
        counts: { current: { hits: 5, total: 7 }, previous: { hits: 0, total: 0 } }, significance: null,
      },
    });
  });

  it('adds the counts of every prompt, so a change that no single prompt shows can be significant for the workspace', async () => {
    const ws = await createTestWorkspace(server.store);
    const prompts = [promptLine(), promptLine(), promptLine()];
    await importRecords(server.store, ws, [
      ...prompts,
      ...prompts.flatMap((p) => [
        // Each prompt: 3 of 4 mentioned now, 1 of 4 before.
        ...[0, 1, 2, 3].map((i) => snap(p.id, `2026-11-21T0${i}:00:00.000Z`, 'gemini', i < 3 ? 'm' : '')),
        ...[0, 1, 2, 3].map((i) => snap(p.id, `2026-11-13T0${i}:00:00.000Z`, 'gemini', i < 1 ? 'm' : '')),
      ]),
    ]);
    const block = (path: string, query: Record<string, string>) => async () => {
      const { data } = (await getWith(server, ws, path, { range: '7d', ...query })).body as { data: Record<string, any> };
      return (data.overview ?? data).mention_rate as Record<string, unknown>;
    };

    // One prompt, Fisher over 8 (C(8,4) = 70): C(4,k)·C(4,4−k) = 1, 16, 36, 16, 1; p = 34/70.
    expect(await block(`/api/v1/visibility/prompts/${prompts[0]!.id}`, {})()).toEqual({
      current: 0.75, previous: 0.25, delta: 0.5,
      counts: { current: { hits: 3, total: 4 }, previous: { hits: 1, total: 4 } },
      significance: { p_value: 0.4857, significant: false },
    });
    // The workspace, 9 of 12 against 3 of 12: Fisher p = 0.039126 (SciPy 1.17 scipy.stats.fisher_exact([[9, 3], [3, 9]])).
    const workspace = { current: 0.75, previous: 0.25, delta: 0.5, counts: { current: { hits: 9, total: 12 }, previous: { hits: 3, total: 12 } } };
    expect(await block('/api/v1/visibility/rates', {})()).toEqual({ ...workspace, significance: { p_value: 0.0391, significant: true } });
    expect(await block('/api/v1/visibility/rates', { alpha: '0.01' })()).toEqual({ ...workspace, significance: { p_value: 0.0391, significant: false } });
  });

  it('when the workspace has one prompt, answers exactly the rates, trend and platforms of that prompt\'s analytics', async () => {
    const ws = await createTestWorkspace(server.store);
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
    const ws = await createTestWorkspace(server.store);
    const res = await getWith(server, ws, '/api/v1/visibility/rates', { range: '90d' });
    expect(res.body).toEqual({
      code: 2000,
      messages: 'OK',
      data: {
        range: '90d',
        mention_rate: { current: null, previous: null, delta: null, counts: NO_COUNTS, significance: null },
        citation_rate: { current: null, previous: null, delta: null, counts: NO_COUNTS, significance: null },
        trend_series: { mention: [], citation: [] },
        platforms: EMPTY_PLATFORMS,
        total_snapshots: 0,
      },
    });
  });

  it('when another workspace has answers, counts none of them', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    await seedTwoPrompts(other);
    const res = await getWith(server, ws, '/api/v1/visibility/rates', { range: '7d' });
    expect((res.body as { data: { total_snapshots: number; platforms: unknown } }).data).toMatchObject({ total_snapshots: 0, platforms: EMPTY_PLATFORMS });
  });

  it.each([
    ['range is not one of 7d, 30d, 90d', { range: '1y' }, 'query.range'],
    ['alpha is 0', { alpha: '0' }, 'query.alpha'],
    ['alpha is 1.5', { alpha: '1.5' }, 'query.alpha'],
  ])('when %s, answers 422 (4220) naming it', async (_what, query, named) => {
    const ws = await createTestWorkspace(server.store);
    const res = await getWith(server, ws, '/api/v1/visibility/rates', query);
    expect([res.status, (res.body as { code: number; messages: string }).code]).toEqual([422, 4220]);
    expect((res.body as { messages: string }).messages).toContain(named);
  });
});
