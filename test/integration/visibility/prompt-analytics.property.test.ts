import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { competitorLine, promptLine, snapshotLine } from '../../support/import-records.js';
import { agreesWithReference, referencePValue } from '../../support/significance-reference.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';

// The endpoint against a reference written straight from the rules the contract states (`PromptAnalytics`) and its
// Significance, over raw snapshots (the service reads rollups): random snapshots around the period
// boundaries, random ranges, random "now" within the day, random significance levels.

const DAY = 86_400_000;
const PLATFORMS = ['chatgpt', 'google_ai_overview', 'perplexity', 'gemini', 'grok', 'claude'] as const;
const COMPETITOR_POOL = ['Acme', 'acme labs', 'Beta', 'Émile', 'zeta', 'Zeta Cloud', '\u{1F600} Smile', '\uFF21cme'];
const TODAY = Date.parse('2026-11-22T00:00:00.000Z') / DAY;

let now = new Date(TODAY * DAY);
const server = useTestServer({ now: () => now });

interface Snap {
  prompt: 0 | 1;
  ms: number;
  platform: (typeof PLATFORMS)[number];
  mentioned: boolean;
  cited: boolean;
  competitors: string[];
}

// --- the reference -------------------------------------------------------------------------

/** a/b rounded half away from zero to 4 decimals, by comparing exact fractions; null when b = 0. */
function refRound(num: bigint, den: bigint): number | null {
  if (den === 0n) return null;
  const negative = num < 0n;
  const n = negative ? -num : num;
  // k = ⌊10⁴·n/den⌋; round up when the remainder is at least half a unit.
  let k = (n * 10_000n) / den;
  const remainder2 = 2n * (n * 10_000n - k * den);
  if (remainder2 >= den) k += 1n;
  const value = Number(k) / 10_000;
  return negative && value !== 0 ? -value : value;
}
const refRate = (count: number, total: number) => refRound(BigInt(count), BigInt(total));
const refDelta = (c: number, t: number, pc: number, pt: number) =>
  t === 0 || pt === 0 ? null : refRound(BigInt(c) * BigInt(pt) - BigInt(pc) * BigInt(t), BigInt(t) * BigInt(pt));

function byCodePoints(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/**
 * The significance the contract defines for hits x1 of n1 against x2 of n2 at `alpha`, as a
 * matcher: the rounded p-value may fall either way where the reference sits on a rounding half.
 */
function refSignificance(x1: number, n1: number, x2: number, n2: number, alpha: number) {
  const p = referencePValue(x1, n1, x2, n2);
  return expect.toSatisfy(
    (answered: { p_value: number; significant: boolean } | null) => agreesWithReference(answered, p, alpha),
    `the significance of ${x1}/${n1} against ${x2}/${n2} at ${alpha} (reference p = ${p})`,
  );
}

function reference(snaps: Snap[], competitors: string[], range: '7d' | '30d' | '90d', nowMs: number, alpha: number, prompt: Record<string, unknown>) {
  const n = { '7d': 7, '30d': 30, '90d': 90 }[range];
  const today = Math.floor(nowMs / DAY);
  const dayOf = (s: Snap) => Math.floor(s.ms / DAY);
  const mine = snaps.filter((s) => s.prompt === 0);
  const current = mine.filter((s) => dayOf(s) > today - n && dayOf(s) <= today);
  const previous = mine.filter((s) => dayOf(s) > today - 2 * n && dayOf(s) <= today - n);
  const count = (list: Snap[], f: 'mentioned' | 'cited') => list.filter((s) => s[f]).length;
  const block = (f: 'mentioned' | 'cited') => ({
    current: refRate(count(current, f), current.length),
    previous: refRate(count(previous, f), previous.length),
    delta: refDelta(count(current, f), current.length, count(previous, f), previous.length),
    counts: { current: { hits: count(current, f), total: current.length }, previous: { hits: count(previous, f), total: previous.length } },
    significance: refSignificance(count(current, f), current.length, count(previous, f), previous.length, alpha),
  });
  const days = [...new Set(current.map(dayOf))].sort((a, b) => a - b);
  const trend = (f: 'mentioned' | 'cited') => days.map((d) => {
    const of = current.filter((s) => dayOf(s) === d);
    return { date: new Date(d * DAY).toISOString().slice(0, 10), rate: refRate(count(of, f), of.length) };
  });
  const newest = mine.length === 0 ? null : new Date(Math.max(...mine.map((s) => s.ms))).toISOString();
  const mention = block('mentioned');
  const citation = block('cited');
  return {
    overview: {
      range,
      prompt: {
        ...prompt,
        mention_rate: mention.current,
        mention_rate_delta: mention.delta,
        citation_rate: citation.current,
        citation_rate_delta: citation.delta,
        last_collected_at: newest,
        mention_counts: mention.counts,
        citation_counts: citation.counts,
        mention_significance: mention.significance,
        citation_significance: citation.significance,
      },
      mention_rate: mention,
      citation_rate: citation,
      trend_series: { mention: trend('mentioned'), citation: trend('cited') },
    },
    platforms: PLATFORMS.map((platform) => {
      const of = current.filter((s) => s.platform === platform);
      return {
        platform,
        total: of.length,
        mentioned: { count: count(of, 'mentioned'), rate: refRate(count(of, 'mentioned'), of.length) },
        cited: { count: count(of, 'cited'), rate: refRate(count(of, 'cited'), of.length) },
      };
    }),
    competitors: competitors
      .map((name) => {
        const mentions = current.filter((s) => s.competitors.some((c) => c.toLowerCase() === name.toLowerCase())).length;
        return { competitor: name, mentions, mention_rate: refRate(mentions, current.length) };
      })
      .sort((a, b) => b.mentions - a.mentions || byCodePoints(a.competitor, b.competitor)),
    total_snapshots: current.length,
  };
}

// --- the generators ------------------------------------------------------------------------

const instant = fc.tuple(
  fc.integer({ min: -185, max: 1 }), // days from today: both periods of every range, a little before and after
  fc.oneof(fc.constant(0), fc.constant(DAY - 1), fc.integer({ min: 0, max: DAY - 1 })),
).map(([d, ms]) => (TODAY + d) * DAY + ms);

const dataset = fc.record({
  competitors: fc.subarray(COMPETITOR_POOL),
  // The snapshots arrive in two files: the second adds days before, between and after the first's.
  split: fc.nat(),
  range: fc.constantFrom<'7d' | '30d' | '90d'>('7d', '30d', '90d'),
  // The default level, a common one, or any level strictly between 0 and 1.
  alpha: fc.oneof(fc.constant(undefined), fc.constantFrom(0.01, 0.1, 0.5), fc.double({ min: 1e-4, max: 0.9999, noNaN: true })),
  nowMs: fc.oneof(fc.constant(0), fc.constant(DAY - 1), fc.integer({ min: 0, max: DAY - 1 })),
  snaps: fc.array(
    fc.record({
      prompt: fc.constantFrom<0 | 1>(0, 0, 0, 1),
      ms: instant,
      platform: fc.constantFrom(...PLATFORMS),
      mentioned: fc.boolean(),
      cited: fc.boolean(),
      picks: fc.array(fc.nat(), { maxLength: 3 }),
      upper: fc.boolean(),
    }),
    { maxLength: 45 },
  ),
}).map(({ competitors, snaps, ...rest }) => ({
  ...rest,
  competitors,
  snaps: snaps.map(({ picks, upper, ...s }): Snap => ({
    ...s,
    // Named as tracked or in another case; never twice in one answer.
    competitors: competitors.length === 0 ? [] : [...new Set(picks.map((p) => competitors[p % competitors.length]!))].map((c) => (upper ? c.toUpperCase() : c)),
  })),
}));

describe('GET /api/v1/visibility/prompts/{prompt}', () => {
  it('answers, for random datasets, ranges and levels, exactly what the rules of the contract compute from the raw snapshots', async () => {
    await fc.assert(
      fc.asyncProperty(dataset, async ({ competitors, range, alpha, nowMs, snaps, split }) => {
        const ws = await createTestWorkspace(server.store);
        const prompts = [promptLine(), promptLine({ text: 'Another prompt of the workspace' })];
        const lines = snaps.map((s) => snapshotLine({
          prompt_id: prompts[s.prompt]!.id,
          collected_at: new Date(s.ms).toISOString(),
          platform: s.platform,
          mentioned: s.mentioned,
          cited: s.cited,
          competitors: s.competitors,
        }));
        const first = split % (lines.length + 1);
        await importRecords(server.store, ws, [...competitors.map((name) => competitorLine({ name })), ...prompts, ...lines.slice(0, first)]);
        await importRecords(server.store, ws, lines.slice(first));
        now = new Date(TODAY * DAY + nowMs);

        const res = await getWith(server, ws, `/api/v1/visibility/prompts/${prompts[0]!.id}`, alpha === undefined ? { range } : { range, alpha });

        const promptFields = {
          id: prompts[0]!.id, text: 'best analytics tool for startups', category_id: null, category: null,
          status: 'ACTIVE', created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z',
        };
        expect(res.status).toBe(200);
        expect((res.body as { data: unknown }).data).toEqual(reference(snaps, competitors, range, now.getTime(), alpha ?? 0.05, promptFields));
      }),
      { numRuns: 35 },
    );
  });
});
