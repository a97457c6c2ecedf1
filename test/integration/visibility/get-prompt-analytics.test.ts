import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { categoryLine, competitorLine, promptLine, snap } from '../../support/import-records.js';
import { startTestServerForThisTest, useTestServer } from '../../support/test-server.js';
import { EMPTY_PLATFORMS, getWith, importRecords, platformRow } from '../../support/visibility.js';
import type { Platform } from '../../../src/analytics/platforms.js';

// "Today" is 2026-11-22 (UTC) for every request of this file; it ends at the last millisecond so
// that a snapshot at 23:59:59.999Z today is in the past.
const NOW = new Date('2026-11-22T23:59:59.999Z');

const server = useTestServer({ now: () => NOW });

/** One snapshot: where, when, and whether the brand is mentioned (m) and cited (c). */
function analytics(ws: TestWorkspace, promptId: string, query: Record<string, string> = {}) {
  return getWith(server, ws, `/api/v1/visibility/prompts/${promptId}`, query);
}

type Significance = { p_value: number; significant: boolean } | null;
type Block = ReturnType<typeof block>;

/**
 * A rate block: [current, previous, delta], the [hits, total] of the current and the previous
 * period, and the significance of the delta (computed by hand in each test).
 */
function block(rates: [number | null, number | null, number | null], current: [number, number], previous: [number, number], significance: Significance) {
  return {
    current: rates[0],
    previous: rates[1],
    delta: rates[2],
    counts: { current: { hits: current[0], total: current[1] }, previous: { hits: previous[0], total: previous[1] } },
    significance,
  };
}

const NOTHING = block([null, null, null], [0, 0], [0, 0], null);
const notSignificant = (p_value: number): Significance => ({ p_value, significant: false });

/** The embedded Prompt object of an uncategorised ACTIVE prompt made by promptLine(): the flat form of its two rate blocks. */
function promptObject(id: string, mention: Block, citation: Block, lastCollectedAt: string | null) {
  return {
    id,
    text: 'best analytics tool for startups',
    category_id: null,
    category: null,
    mention_rate: mention.current,
    mention_rate_delta: mention.delta,
    citation_rate: citation.current,
    citation_rate_delta: citation.delta,
    last_collected_at: lastCollectedAt,
    status: 'ACTIVE',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    mention_counts: mention.counts,
    citation_counts: citation.counts,
    mention_significance: mention.significance,
    citation_significance: citation.significance,
  };
}

describe('GET /api/v1/visibility/prompts/{prompt}', () => {
  it('when the prompt has no snapshot, answers null rates, six empty platforms and every competitor with 0 mentions', async () => {
    const ws = await createTestWorkspace(server.store);
    const category = categoryLine({ name: 'Buying guides', color: '#4f46e5' });
    const prompt = promptLine({ text: 'Which CRM is best for a small team?', category_id: category.id, status: 'PENDING', created_at: '2026-11-20T09:30:00+02:00' });
    await importRecords(server.store, ws, [
      category, prompt,
      competitorLine({ name: 'Beta CRM' }), competitorLine({ name: 'acme' }), competitorLine({ name: 'Acme Suite' }),
    ]);

    const res = await analytics(ws, prompt.id, { range: '7d' });

    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        overview: {
          range: '7d',
          prompt: {
            id: prompt.id,
            text: 'Which CRM is best for a small team?',
            category_id: category.id,
            category: { id: category.id, name: 'Buying guides', color: '#4f46e5' },
            mention_rate: null,
            mention_rate_delta: null,
            citation_rate: null,
            citation_rate_delta: null,
            last_collected_at: null,
            status: 'PENDING',
            created_at: '2026-11-20T07:30:00.000Z',
            updated_at: '2026-11-20T07:30:00.000Z',
            mention_counts: NOTHING.counts,
            citation_counts: NOTHING.counts,
            mention_significance: null,
            citation_significance: null,
          },
          mention_rate: NOTHING,
          citation_rate: NOTHING,
          trend_series: { mention: [], citation: [] },
        },
        platforms: EMPTY_PLATFORMS,
        // All tied at 0: by name in code-point order (upper case before lower case).
        competitors: [
          { competitor: 'Acme Suite', mentions: 0, mention_rate: null },
          { competitor: 'Beta CRM', mentions: 0, mention_rate: null },
          { competitor: 'acme', mentions: 0, mention_rate: null },
        ],
        total_snapshots: 0,
      },
    }]);
  });

  it('when the prompt has data only in the previous period, answers previous rates, null current rates and deltas, and empty platforms', async () => {
    const ws = await createTestWorkspace(server.store);
    const prompt = promptLine();
    const rival = competitorLine({ name: 'Rival' });
    await importRecords(server.store, ws, [
      prompt, rival,
      snap(prompt.id, '2026-11-08T23:59:59.999Z', 'chatgpt', ''), // before the previous period: ignored
      snap(prompt.id, '2026-11-10T08:00:00.000Z', 'chatgpt', 'mc', ['Rival']),
      snap(prompt.id, '2026-11-12T08:00:00.000Z', 'claude', '', ['Rival']),
      snap(prompt.id, '2026-11-15T23:59:59.999Z', 'gemini', 'm'),
    ]);

    const res = await analytics(ws, prompt.id, { range: '7d' });

    // No current snapshot: no delta, so no significance either.
    const mention = block([null, 0.6667, null], [0, 0], [2, 3], null);
    const citation = block([null, 0.3333, null], [0, 0], [1, 3], null);
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        overview: {
          range: '7d',
          prompt: promptObject(prompt.id, mention, citation, '2026-11-15T23:59:59.999Z'),
          mention_rate: mention,
          citation_rate: citation,
          trend_series: { mention: [], citation: [] },
        },
        platforms: EMPTY_PLATFORMS,
        competitors: [{ competitor: 'Rival', mentions: 0, mention_rate: null }],
        total_snapshots: 0,
      },
    }]);
  });

  it('when snapshots sit on the period boundaries, counts 00:00:00.000Z in the day it starts and 23:59:59.999Z in the day it ends', async () => {
    const ws = await createTestWorkspace(server.store);
    const prompt = promptLine();
    await importRecords(server.store, ws, [
      prompt,
      snap(prompt.id, '2026-11-08T23:59:59.999Z', 'chatgpt', 'mc'), // last ms before the previous period
      snap(prompt.id, '2026-11-09T00:00:00.000Z', 'chatgpt', ''), // first ms of the previous period
      snap(prompt.id, '2026-11-15T23:59:59.999Z', 'chatgpt', 'm'), // last ms of the previous period
      snap(prompt.id, '2026-11-16T00:00:00.000Z', 'chatgpt', 'mc'), // first ms of the current period
      snap(prompt.id, '2026-11-22T23:59:59.999Z', 'chatgpt', 'c'), // last ms of today
      snap(prompt.id, '2026-11-23T00:00:00.000Z', 'chatgpt', ''), // tomorrow: in no period
    ]);

    const res = await analytics(ws, prompt.id, { range: '7d' });

    // Fisher, 4 snapshots: mentions 1 of 2 against 1 of 2 are the likeliest table (p = 1); citations
    // 2 of 2 against 0 of 2 have P = C(2,2)·C(2,0)/C(4,2) = 1/6, as does 0 of 2, so p = 2/6.
    const mention = block([0.5, 0.5, 0], [1, 2], [1, 2], notSignificant(1));
    const citation = block([1, 0, 1], [2, 2], [0, 2], notSignificant(0.3333));
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        overview: {
          range: '7d',
          // last_collected_at is the newest snapshot, whatever the period.
          prompt: promptObject(prompt.id, mention, citation, '2026-11-23T00:00:00.000Z'),
          mention_rate: mention,
          citation_rate: citation,
          trend_series: {
            mention: [{ date: '2026-11-16', rate: 1 }, { date: '2026-11-22', rate: 0 }],
            citation: [{ date: '2026-11-16', rate: 1 }, { date: '2026-11-22', rate: 1 }],
          },
        },
        platforms: [platformRow('chatgpt', 2, 1, 0.5, 2, 1), ...EMPTY_PLATFORMS.slice(1)],
        competitors: [],
        total_snapshots: 2,
      },
    }]);
  });

  it('when today has just begun, counts a snapshot at 00:00:00.000Z today in the current period', async () => {
    const early = await startTestServerForThisTest({ store: server.store, now: () => new Date('2026-11-22T00:00:00.000Z') });
    const ws = await createTestWorkspace(server.store);
    const prompt = promptLine();
    await importRecords(server.store, ws, [
      prompt,
      snap(prompt.id, '2026-11-15T23:59:59.999Z', 'perplexity', ''),
      snap(prompt.id, '2026-11-22T00:00:00.000Z', 'perplexity', 'm'),
    ]);

    const res = await getWith(early, ws, `/api/v1/visibility/prompts/${prompt.id}`, { range: '7d' });

    // One snapshot a period: 1 of 1 against 0 of 1 has P = 1/2 either way (p = 1); no hit at all gives p = 1.
    const mention = block([1, 0, 1], [1, 1], [0, 1], notSignificant(1));
    const citation = block([0, 0, 0], [0, 1], [0, 1], notSignificant(1));
    expect((res.body as { data: { overview: unknown } }).data.overview).toEqual({
      range: '7d',
      prompt: promptObject(prompt.id, mention, citation, '2026-11-22T00:00:00.000Z'),
      mention_rate: mention,
      citation_rate: citation,
      trend_series: { mention: [{ date: '2026-11-22', rate: 1 }], citation: [{ date: '2026-11-22', rate: 0 }] },
    });
  });

  it('when a day has several snapshots and other days none, answers one trend point per day with data and per-platform counts', async () => {
    const ws = await createTestWorkspace(server.store);
    const prompt = promptLine();
    const s = (at: string, p: Platform, f: 'mc' | 'm' | 'c' | '') => snap(prompt.id, at, p, f);
    await importRecords(server.store, ws, [
      prompt,
      // 2026-11-01: 3 snapshots, 2 mentioned, 1 cited
      s('2026-11-01T01:00:00.000Z', 'chatgpt', 'mc'), s('2026-11-01T13:00:00.000Z', 'chatgpt', 'm'), s('2026-11-01T23:00:00.000Z', 'perplexity', ''),
      // 2026-11-05: 6 snapshots, 4 mentioned, 3 cited
      s('2026-11-05T02:00:00.000Z', 'grok', 'mc'), s('2026-11-05T03:00:00.000Z', 'grok', ''),
      s('2026-11-05T04:00:00.000Z', 'claude', 'm'), s('2026-11-05T05:00:00.000Z', 'claude', 'm'),
      s('2026-11-05T06:00:00.000Z', 'gemini', 'c'), s('2026-11-05T07:00:00.000Z', 'google_ai_overview', 'mc'),
      // 2026-11-20: 1 snapshot
      s('2026-11-20T10:00:00.000Z', 'chatgpt', ''),
      // previous period (2026-09-24 … 2026-10-23): 7 snapshots, 3 mentioned, 1 cited
      s('2026-10-01T10:00:00.000Z', 'chatgpt', 'mc'), s('2026-10-01T11:00:00.000Z', 'chatgpt', 'm'), s('2026-10-02T10:00:00.000Z', 'gemini', 'm'),
      s('2026-10-03T10:00:00.000Z', 'gemini', ''), s('2026-10-04T10:00:00.000Z', 'gemini', ''), s('2026-10-05T10:00:00.000Z', 'claude', ''),
      s('2026-10-23T23:59:59.999Z', 'claude', ''),
    ]);

    const res = await analytics(ws, prompt.id, { range: '30d' });

    // Fisher over 17 snapshots, C(17,10) = 19,448 tables. Mentions (9 in all, 6 current): the
    // weights C(9,k)·C(8,10−k) for k = 2..9 are 36, 672, 3528, 7056, 5880, 2016, 252, 8; all but
    // k = 5 are at most the observed 5880: p = 12,392/19,448 = 0.63719. Citations (5 in all, 4
    // current): C(5,k)·C(12,10−k) for k = 0..5 are 66, 1100, 4950, 7920, 4620, 792; those at most
    // 4620: p = 6578/19,448 = 0.33824.
    const mention = block([0.6, 0.4286, 0.1714], [6, 10], [3, 7], notSignificant(0.6372));
    const citation = block([0.4, 0.1429, 0.2571], [4, 10], [1, 7], notSignificant(0.3382));
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        overview: {
          range: '30d',
          prompt: promptObject(prompt.id, mention, citation, '2026-11-20T10:00:00.000Z'),
          mention_rate: mention,
          citation_rate: citation,
          trend_series: {
            mention: [{ date: '2026-11-01', rate: 0.6667 }, { date: '2026-11-05', rate: 0.6667 }, { date: '2026-11-20', rate: 0 }],
            citation: [{ date: '2026-11-01', rate: 0.3333 }, { date: '2026-11-05', rate: 0.5 }, { date: '2026-11-20', rate: 0 }],
          },
        },
        platforms: [
          platformRow('chatgpt', 3, 2, 0.6667, 1, 0.3333),
          platformRow('google_ai_overview', 1, 1, 1, 1, 1),
          platformRow('perplexity', 1, 0, 0, 0, 0),
          platformRow('gemini', 1, 0, 0, 1, 1),
          platformRow('grok', 2, 1, 0.5, 1, 0.5),
          platformRow('claude', 2, 2, 1, 0, 0),
        ],
        competitors: [],
        total_snapshots: 10,
      },
    }]);
  });

  it('when asked for each range, compares the N days ending today with the N days before, and defaults to 30d', async () => {
    const ws = await createTestWorkspace(server.store);
    const prompt = promptLine();
    const daysAgo = (n: number) => new Date(Date.parse('2026-11-22T12:00:00.000Z') - n * 86_400_000).toISOString();
    const marks: Array<[number, 'mc' | 'm' | 'c' | '']> = [
      [0, 'mc'], [6, 'm'], [7, ''], [13, 'mc'], [14, 'c'], [29, 'm'], [30, ''], [59, 'mc'], [60, ''], [89, 'c'], [90, 'm'], [179, 'mc'], [180, ''],
    ];
    await importRecords(server.store, ws, [prompt, ...marks.map(([n, f]) => snap(prompt.id, daysAgo(n), 'gemini', f))]);

    const summary = async (query: Record<string, string>) => {
      const { data } = (await analytics(ws, prompt.id, query)).body as { data: { overview: Record<string, unknown>; total_snapshots: number } };
      const trend = data.overview.trend_series as { mention: Array<{ date: string }> };
      return {
        range: data.overview.range,
        mention_rate: data.overview.mention_rate,
        citation_rate: data.overview.citation_rate,
        total: data.total_snapshots,
        first_day: trend.mention[0]?.date,
        days: trend.mention.length,
      };
    };

    expect(await summary({ range: '7d' })).toEqual({
      range: '7d', total: 2, first_day: '2026-11-16', days: 2,
      mention_rate: block([1, 0.5, 0.5], [2, 2], [1, 2], notSignificant(1)),
      citation_rate: block([0.5, 0.5, 0], [1, 2], [1, 2], notSignificant(1)),
    });
    const thirty = {
      range: '30d', total: 6, first_day: '2026-10-24', days: 6,
      mention_rate: block([0.6667, 0.5, 0.1667], [4, 6], [1, 2], notSignificant(1)),
      citation_rate: block([0.5, 0.5, 0], [3, 6], [1, 2], notSignificant(1)),
    };
    expect(await summary({ range: '30d' })).toEqual(thirty);
    expect(await summary({})).toEqual(thirty);
    // Mentions 5 of 10 against 2 of 2: C(7,k)·C(5,10−k) for k = 5..7 are 21, 35, 10 (of 66); p = 31/66.
    expect(await summary({ range: '90d' })).toEqual({
      range: '90d', total: 10, first_day: '2026-08-25', days: 10,
      mention_rate: block([0.5, 1, -0.5], [5, 10], [2, 2], notSignificant(0.4697)),
      citation_rate: block([0.5, 0.5, 0], [5, 10], [1, 2], notSignificant(1)),
    });
  });

  it('rounds every rate half away from zero to 4 decimals, and each delta from the unrounded rates', async () => {
    const ws = await createTestWorkspace(server.store);
    const halves = promptLine();
    const thirds = promptLine();
    const rival = competitorLine({ name: 'Rival' });
    const many = (promptId: string, day: string, n: number, flags: (i: number) => 'mc' | 'm' | 'c' | '', competitors: (i: number) => string[] = () => []) =>
      Array.from({ length: n }, (_, i) => snap(promptId, `${day}T${String(i % 24).padStart(2, '0')}:00:00.000Z`, 'chatgpt', flags(i), competitors(i)));
    await importRecords(server.store, ws, [
      halves, thirds, rival,
      // current: 32 snapshots, 1 mentioned (0.03125), 3 cited (0.09375), Rival named in 1 (0.03125)
      ...many(halves.id, '2026-11-20', 32, (i) => (i === 0 ? 'm' : i <= 3 ? 'c' : ''), (i) => (i === 5 ? ['Rival'] : [])),
      // previous: 16 snapshots, 1 mentioned (0.0625), none cited
      ...many(halves.id, '2026-11-10', 16, (i) => (i === 0 ? 'm' : '')),
      // current: 3 snapshots, 1 mentioned, 2 cited; previous: 6 snapshots, 1 mentioned, 2 cited
      ...many(thirds.id, '2026-11-21', 3, (i) => (i === 0 ? 'mc' : i === 1 ? 'c' : '')),
      ...many(thirds.id, '2026-11-11', 6, (i) => (i === 0 ? 'mc' : i === 1 ? 'c' : '')),
    ]);

    const h = (await analytics(ws, halves.id, { range: '7d' })).body as { data: Record<string, any> };
    expect(h.data.overview.mention_rate).toMatchObject({ current: 0.0313, previous: 0.0625, delta: -0.0313 });
    expect(h.data.overview.citation_rate).toMatchObject({ current: 0.0938, previous: 0, delta: 0.0938 });
    expect(h.data.platforms[0]).toEqual(platformRow('chatgpt', 32, 1, 0.0313, 3, 0.0938));
    expect(h.data.competitors).toEqual([{ competitor: 'Rival', mentions: 1, mention_rate: 0.0313 }]);

    const t = (await analytics(ws, thirds.id, { range: '7d' })).body as { data: Record<string, any> };
    // 1/3 − 1/6 = 0.16666… → 0.1667 (the rounded rates would give 0.3333 − 0.1667 = 0.1666)
    expect(t.data.overview.mention_rate).toMatchObject({ current: 0.3333, previous: 0.1667, delta: 0.1667 });
    // 2/3 − 1/3 = 0.33333… → 0.3333 (the rounded rates would give 0.6667 − 0.3333 = 0.3334)
    expect(t.data.overview.citation_rate).toMatchObject({ current: 0.6667, previous: 0.3333, delta: 0.3333 });
    expect(t.data.overview.prompt).toMatchObject({ mention_rate: 0.3333, mention_rate_delta: 0.1667, citation_rate: 0.6667, citation_rate_delta: 0.3333 });
  });

  it('gives the counts behind each rate, and whether each delta is significant at alpha, comparing the unrounded p-value', async () => {
    const ws = await createTestWorkspace(server.store);
    const prompt = promptLine();
    const at = (day: string, i: number) => `${day}T${String(i).padStart(2, '0')}:00:00.000Z`;
    await importRecords(server.store, ws, [
      prompt,
      // Current period: 4 snapshots, all mentioned, 3 cited. Previous: 4 snapshots, none mentioned or cited.
      ...[0, 1, 2, 3].map((i) => snap(prompt.id, at('2026-11-21', i), 'chatgpt', i < 3 ? 'mc' : 'm')),
      ...[0, 1, 2, 3].map((i) => snap(prompt.id, at('2026-11-12', i), 'chatgpt', '')),
    ]);
    // Fisher over 8 snapshots, C(8,4) = 70 tables. Mentions 4 of 4 against 0 of 4: the weights
    // C(4,k)·C(4,4−k) for k = 0..4 are 1, 16, 36, 16, 1; p = 2/70 = 0.028571…
    // Citations 3 of 4 against 0 of 4: C(3,k)·C(5,4−k) for k = 0..3 are 5, 30, 30, 5; p = 10/70 = 0.142857…
    const overview = async (query: Record<string, string>) =>
      ((await analytics(ws, prompt.id, { range: '7d', ...query })).body as { data: { overview: Record<string, any> } }).data.overview;

    const byDefault = await overview({});
    expect(byDefault.mention_rate).toEqual(block([1, 0, 1], [4, 4], [0, 4], { p_value: 0.0286, significant: true }));
    expect(byDefault.citation_rate).toEqual(block([0.75, 0, 0.75], [3, 4], [0, 4], notSignificant(0.1429)));
    expect(byDefault.prompt).toMatchObject({
      mention_counts: byDefault.mention_rate.counts,
      citation_counts: byDefault.citation_rate.counts,
      mention_significance: { p_value: 0.0286, significant: true },
      citation_significance: { p_value: 0.1429, significant: false },
    });

    const strict = await overview({ alpha: '0.01' });
    expect([strict.mention_rate.significance, strict.prompt.mention_significance]).toEqual([notSignificant(0.0286), notSignificant(0.0286)]);
    // 0.028571… < 0.0286, although the rounded p-value equals it.
    expect((await overview({ alpha: '0.0286' })).mention_rate.significance).toEqual({ p_value: 0.0286, significant: true });
    expect((await overview({ alpha: '0.0285' })).mention_rate.significance).toEqual(notSignificant(0.0286));
    expect((await overview({ alpha: '0.5' })).citation_rate.significance).toEqual({ p_value: 0.1429, significant: true });
    // alpha changes no rate or count.
    expect({ ...strict.mention_rate, significance: null }).toEqual({ ...byDefault.mention_rate, significance: null });
  });

  it('from 1000 snapshots in both periods together, tests the change with the pooled two-proportion z-test', async () => {
    const ws = await createTestWorkspace(server.store);
    const prompt = promptLine();
    const many = (day: string, n: number, mentioned: number) => Array.from({ length: n }, (_, i) =>
      snap(prompt.id, new Date(Date.parse(`${day}T00:00:00.000Z`) + i * 60_000).toISOString(), 'perplexity', i < mentioned ? 'm' : ''));
    await importRecords(server.store, ws, [prompt, ...many('2026-11-20', 500, 130), ...many('2026-11-11', 500, 100)]);

    const res = await analytics(ws, prompt.id, { range: '7d' });

    // p̂ = 230/1000 = 0.23, z = (0.26 − 0.20) / √(0.23 · 0.77 · (1/500 + 1/500)) = 2.25430,
    // p = 2·(1 − Φ(2.25430)) = 0.024177 (SciPy 1.17: 2 * scipy.stats.norm.sf(2.2543013656)).
    // No citation in either period: p̂ = 0, both rates equal, p = 1.
    const { overview } = (res.body as { data: { overview: Record<string, unknown> } }).data;
    expect(overview.mention_rate).toEqual(block([0.26, 0.2, 0.06], [130, 500], [100, 500], { p_value: 0.0242, significant: true }));
    expect(overview.citation_rate).toEqual(block([0, 0, 0], [0, 500], [0, 500], notSignificant(1)));
    const at1 = (await analytics(ws, prompt.id, { range: '7d', alpha: '0.01' })).body as { data: { overview: Record<string, any> } };
    expect(at1.data.overview.mention_rate.significance).toEqual(notSignificant(0.0242));
  });

  it('lists every tracked competitor by mentions descending, ties by name in code-point order, matching names case-insensitively', async () => {
    const ws = await createTestWorkspace(server.store);
    const prompt = promptLine();
    const names = ['Zeta', 'alpha', 'Beta', 'Acme', 'Émile', 'Gamma', 'Delta'];
    await importRecords(server.store, ws, [
      prompt,
      ...names.map((name) => competitorLine({ name })),
      snap(prompt.id, '2026-11-20T10:00:00.000Z', 'chatgpt', 'm', ['zeta', 'Beta', 'ALPHA', 'émile']),
      snap(prompt.id, '2026-11-20T11:00:00.000Z', 'claude', '', ['Zeta', 'beta', 'Alpha', 'Émile', 'Acme']),
      snap(prompt.id, '2026-11-21T10:00:00.000Z', 'grok', ''),
      snap(prompt.id, '2026-11-22T10:00:00.000Z', 'grok', ''),
      // previous period: does not count
      snap(prompt.id, '2026-11-12T10:00:00.000Z', 'grok', '', ['Gamma', 'Delta', 'Acme']),
    ]);
    // Another workspace tracking a competitor of the same name changes nothing here.
    const other = await createTestWorkspace(server.store);
    await importRecords(server.store, other, [competitorLine({ name: 'Zeta' }), competitorLine({ name: 'Omega' })]);

    const res = await analytics(ws, prompt.id, { range: '7d' });

    expect((res.body as { data: { competitors: unknown } }).data.competitors).toEqual([
      { competitor: 'Beta', mentions: 2, mention_rate: 0.5 },
      { competitor: 'Zeta', mentions: 2, mention_rate: 0.5 },
      { competitor: 'alpha', mentions: 2, mention_rate: 0.5 },
      { competitor: 'Émile', mentions: 2, mention_rate: 0.5 },
      { competitor: 'Acme', mentions: 1, mention_rate: 0.25 },
      { competitor: 'Delta', mentions: 0, mention_rate: 0 },
      { competitor: 'Gamma', mentions: 0, mention_rate: 0 },
    ]);
  });

  it('when the prompt belongs to another workspace or does not exist, answers the same 404', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const foreign = promptLine();
    await importRecords(server.store, other, [foreign, snap(foreign.id, '2026-11-20T10:00:00.000Z', 'chatgpt', 'mc')]);

    const foreignRes = await analytics(ws, foreign.id);
    const unknownRes = await analytics(ws, randomUUID());

    expect([foreignRes.status, foreignRes.body]).toEqual([404, { code: 4040, messages: 'Prompt not found.', data: null }]);
    expect([unknownRes.status, unknownRes.text]).toEqual([404, foreignRes.text]);
  });

  it.each([
    ['a malformed UUID', 'not-a-uuid', {}, { in: 'path', name: 'prompt', message: 'must match format "uuid"' }],
    ['range=14d', randomUUID(), { range: '14d' }, { in: 'query', name: 'range', message: 'must be equal to one of the allowed values: 7d, 30d, 90d' }],
    ['range=7D', randomUUID(), { range: '7D' }, { in: 'query', name: 'range', message: 'must be equal to one of the allowed values: 7d, 30d, 90d' }],
    ['an unknown parameter', randomUUID(), { period: '7d' }, { in: 'query', name: 'period', message: 'is not a known parameter' }],
    ['alpha=0', randomUUID(), { alpha: '0' }, { in: 'query', name: 'alpha', message: 'must be a finite decimal number strictly between 0 and 1' }],
    ['alpha=1', randomUUID(), { alpha: '1' }, { in: 'query', name: 'alpha', message: 'must be a finite decimal number strictly between 0 and 1' }],
    ['alpha=-0.05', randomUUID(), { alpha: '-0.05' }, { in: 'query', name: 'alpha', message: 'must be a finite decimal number strictly between 0 and 1' }],
    ['alpha=5%', randomUUID(), { alpha: '5%' }, { in: 'query', name: 'alpha', message: 'must be a finite decimal number strictly between 0 and 1' }],
  ])('when given %s, answers 422 naming the parameter for people and for programs', async (_what, id, query, error) => {
    const ws = await createTestWorkspace(server.store);
    const res = await analytics(ws, id, query);
    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
    expect((res.body as { messages: string }).messages).toBe(`Invalid parameters: ${error.in}.${error.name} ${error.message}.`);
    expect((res.body as { data: unknown }).data).toEqual({ errors: [error] });
  });
});
