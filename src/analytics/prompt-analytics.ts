import type { components } from '../../generated/openapi.js';
import { dateOfDay } from './periods.js';
import { NO_COUNTS, PLATFORMS, type CompetitorCount, type Counts, type DailyCounts, type PeriodTotals, type Periods, type Platform, type PromptRecord, type PromptStatus } from '../store/interfaces/visibility-rows.js';
import { rate, rateDelta } from './rates.js';
import { significanceOf } from './significance.js';

type Schemas = components['schemas'];
export type { CompetitorCount, Counts, DailyCounts, PeriodTotals, PromptRecord, PromptStatus };
export { NO_COUNTS };
export type Prompt = Schemas['Prompt'];
export type PromptAnalytics = Schemas['PromptAnalytics'];
type RateBlock = Schemas['RateBlock'];
type RateCounts = Schemas['RateCounts'];

/** Which snapshots a rate counts: those whose answer names the brand, or those citing its pages. */
type RateOf = 'mentioned' | 'cited';

function rateCounts(current: Counts, previous: Counts, of: RateOf): RateCounts {
  return { current: { hits: current[of], total: current.total }, previous: { hits: previous[of], total: previous.total } };
}

/** A rate block: both periods' rates, their delta, the counts behind them and whether the delta is more than chance at `alpha`. */
function rateBlock(current: Counts, previous: Counts, of: RateOf, alpha: number): RateBlock {
  const counts = rateCounts(current, previous, of);
  return {
    current: rate(current[of], current.total),
    previous: rate(previous[of], previous.total),
    delta: rateDelta(current[of], current.total, previous[of], previous.total),
    counts,
    significance: significanceOf(counts.current, counts.previous, alpha),
  };
}

/**
 * The Prompt object: its rates over the current period, their change against the previous one,
 * the counts behind them and whether each change is more than chance at `alpha`.
 */
export function promptView(record: PromptRecord, current: Counts, previous: Counts, alpha: number): Prompt {
  const mention = rateBlock(current, previous, 'mentioned', alpha);
  const citation = rateBlock(current, previous, 'cited', alpha);
  return {
    id: record.id,
    text: record.text,
    category_id: record.category_id,
    // The foreign key guarantees the category row exists whenever category_id is set.
    category: record.category_id !== null && record.category_name !== null && record.category_color !== null
      ? { id: record.category_id, name: record.category_name, color: record.category_color }
      : null,
    mention_rate: mention.current,
    mention_rate_delta: mention.delta,
    citation_rate: citation.current,
    citation_rate_delta: citation.delta,
    last_collected_at: record.last_collected_ms === null ? null : new Date(record.last_collected_ms).toISOString(),
    status: record.status,
    created_at: record.created_at,
    mention_counts: mention.counts,
    citation_counts: citation.counts,
    mention_significance: mention.significance,
    citation_significance: citation.significance,
    updated_at: record.updated_at,
  };
}

/** Orders strings by Unicode code point (JS `<` compares UTF-16 units, which differs above U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

function add(into: Counts, row: Counts): void {
  into.total += row.total;
  into.mentioned += row.mentioned;
  into.cited += row.cited;
}

/** Rates, trend and per-platform results of a set of rollup rows: what every analytics payload shares. */
export interface RollupSummary {
  current: Counts;
  previous: Counts;
  mention_rate: RateBlock;
  citation_rate: RateBlock;
  trend_series: Schemas['TrendSeries'];
  platforms: Schemas['PlatformResult'][];
}

/** Period totals of (day, platform) rollup rows; rows outside both periods are ignored. */
function periodTotals(periods: Periods, daily: readonly DailyCounts[]): PeriodTotals {
  const previous: Counts = { ...NO_COUNTS };
  const byPlatform = new Map<Platform, Counts & { platform: Platform }>();
  const byDay = new Map<number, Counts & { day: number }>();
  for (const row of daily) {
    if (row.day >= periods.currentStart && row.day <= periods.today) {
      let platform = byPlatform.get(row.platform);
      if (!platform) byPlatform.set(row.platform, (platform = { platform: row.platform, ...NO_COUNTS }));
      add(platform, row);
      let day = byDay.get(row.day);
      if (!day) byDay.set(row.day, (day = { day: row.day, ...NO_COUNTS }));
      add(day, row);
    } else if (row.day >= periods.previousStart && row.day <= periods.previousEnd) {
      add(previous, row);
    }
  }
  return { previous, days: [...byDay.values()], platforms: [...byPlatform.values()] };
}

/**
 * The rate blocks (significance at level `alpha`), the daily trend of the current period and the
 * six platform results.
 * @public A read built by `npm run new:endpoint` from prompt analytics takes its rates from here
 * (test/scaffold/ builds one).
 */
export function summarisePeriods(totals: PeriodTotals, alpha: number): RollupSummary {
  const { previous } = totals;
  const current: Counts = { ...NO_COUNTS };
  for (const day of totals.days) add(current, day);
  // A rollup row can hold zero snapshots (all of that day's answers moved elsewhere): no point then.
  const days = totals.days.filter((c) => c.total > 0).sort((a, b) => a.day - b.day);
  const dates = days.map((c) => dateOfDay(c.day));
  const byPlatform = new Map(totals.platforms.map((p) => [p.platform, p]));
  return {
    current,
    previous,
    mention_rate: rateBlock(current, previous, 'mentioned', alpha),
    citation_rate: rateBlock(current, previous, 'cited', alpha),
    trend_series: {
      mention: days.map((c, i) => ({ date: dates[i]!, rate: rate(c.mentioned, c.total)! })),
      citation: days.map((c, i) => ({ date: dates[i]!, rate: rate(c.cited, c.total)! })),
    },
    platforms: PLATFORMS.map((platform) => {
      const c = byPlatform.get(platform) ?? NO_COUNTS;
      return {
        platform,
        total: c.total,
        mentioned: { count: c.mentioned, rate: rate(c.mentioned, c.total) },
        cited: { count: c.cited, rate: rate(c.cited, c.total) },
      };
    }),
  };
}

/**
 * Sums rollup rows (one prompt's, or the whole workspace's) into the current and previous periods,
 * the daily trend of the current period and the six platform results. Rows outside both periods
 * are ignored.
 */
export function summariseRollups(periods: Periods, daily: readonly DailyCounts[], alpha: number): RollupSummary {
  return summarisePeriods(periodTotals(periods, daily), alpha);
}

/**
 * The prompt analytics payload (the `PromptAnalytics` schema of the contract) from the prompt's period totals and its
 * competitors' current-period mentions.
 */
export function computePromptAnalytics(input: {
  periods: Periods;
  prompt: PromptRecord;
  totals: PeriodTotals;
  competitors: readonly CompetitorCount[];
  /** The significance level of the deltas. */
  alpha: number;
}): PromptAnalytics {
  const { periods, alpha } = input;
  const summary = summarisePeriods(input.totals, alpha);
  const total = summary.current.total;
  const competitors = input.competitors
    .map((c) => ({ competitor: c.name, mentions: c.mentions, mention_rate: rate(c.mentions, total) }))
    .sort((a, b) => b.mentions - a.mentions || compareCodePoints(a.competitor, b.competitor));
  return {
    overview: {
      range: periods.range,
      prompt: promptView(input.prompt, summary.current, summary.previous, alpha),
      mention_rate: summary.mention_rate,
      citation_rate: summary.citation_rate,
      trend_series: summary.trend_series,
    },
    platforms: summary.platforms,
    competitors,
    total_snapshots: total,
  };
}
