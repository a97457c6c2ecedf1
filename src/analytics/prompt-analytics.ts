import type { components } from '../../generated/openapi.js';
import { dateOfDay, type Periods } from './periods.js';
import { PLATFORMS, type Platform } from './platforms.js';
import { rate, rateDelta } from './rates.js';

type Schemas = components['schemas'];
export type Prompt = Schemas['Prompt'];
export type PromptAnalytics = Schemas['PromptAnalytics'];
export type PromptStatus = Schemas['PromptStatus'];

/** A prompt as stored, with its category (null fields when it has none). */
export interface PromptRecord {
  id: string;
  text: string;
  category_id: string | null;
  category_name: string | null;
  category_color: string | null;
  status: PromptStatus;
  created_at: string;
  updated_at: string;
  last_collected_ms: number | null;
}

/** Snapshot counts over some set of snapshots. */
export interface Counts {
  total: number;
  mentioned: number;
  cited: number;
}

/** One rollup row: a prompt's snapshots of one platform on one UTC day. */
export interface DailyCounts extends Counts {
  day: number;
  platform: Platform;
}

/** A tracked competitor and how many current-period snapshots name it. */
export interface CompetitorCount {
  name: string;
  mentions: number;
}

export const NO_COUNTS: Readonly<Counts> = Object.freeze({ total: 0, mentioned: 0, cited: 0 });

/** The Prompt object: its rates over the current period and their change against the previous one. */
export function promptView(record: PromptRecord, current: Counts, previous: Counts): Prompt {
  return {
    id: record.id,
    text: record.text,
    category_id: record.category_id,
    // The foreign key guarantees the category row exists whenever category_id is set.
    category: record.category_id !== null && record.category_name !== null && record.category_color !== null
      ? { id: record.category_id, name: record.category_name, color: record.category_color }
      : null,
    mention_rate: rate(current.mentioned, current.total),
    mention_rate_delta: rateDelta(current.mentioned, current.total, previous.mentioned, previous.total),
    citation_rate: rate(current.cited, current.total),
    citation_rate_delta: rateDelta(current.cited, current.total, previous.cited, previous.total),
    last_collected_at: record.last_collected_ms === null ? null : new Date(record.last_collected_ms).toISOString(),
    status: record.status,
    created_at: record.created_at,
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

/**
 * Sums over the two periods of a range: what every analytics payload is computed from. The store
 * produces them from running totals (a prompt) or in SQL (the workspace), so a request turns at
 * most range + 15 rows into JavaScript values, not one per (day, platform).
 */
export interface PeriodTotals {
  previous: Counts;
  /** The current period per UTC day; days without data may be absent. Any order. */
  days: ReadonlyArray<Counts & { day: number }>;
  /** The current period per platform; platforms without data may be absent. Any order. */
  platforms: ReadonlyArray<Counts & { platform: Platform }>;
}

/** Rates, trend and per-platform results of a set of rollup rows: what every analytics payload shares. */
export interface RollupSummary {
  current: Counts;
  previous: Counts;
  mention_rate: Schemas['RateBlock'];
  citation_rate: Schemas['RateBlock'];
  trend_series: Schemas['TrendSeries'];
  platforms: Schemas['PlatformResult'][];
}

/** Period totals of (day, platform) rollup rows; rows outside both periods are ignored. */
export function periodTotals(periods: Periods, daily: readonly DailyCounts[]): PeriodTotals {
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

/** The rate blocks, the daily trend of the current period and the six platform results. */
export function summarisePeriods(totals: PeriodTotals): RollupSummary {
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
    mention_rate: {
      current: rate(current.mentioned, current.total),
      previous: rate(previous.mentioned, previous.total),
      delta: rateDelta(current.mentioned, current.total, previous.mentioned, previous.total),
    },
    citation_rate: {
      current: rate(current.cited, current.total),
      previous: rate(previous.cited, previous.total),
      delta: rateDelta(current.cited, current.total, previous.cited, previous.total),
    },
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
export function summariseRollups(periods: Periods, daily: readonly DailyCounts[]): RollupSummary {
  return summarisePeriods(periodTotals(periods, daily));
}

/**
 * The prompt analytics payload (PRODUCT.md §6) from the prompt's period totals and its
 * competitors' current-period mentions.
 */
export function computePromptAnalytics(input: {
  periods: Periods;
  prompt: PromptRecord;
  totals: PeriodTotals;
  competitors: readonly CompetitorCount[];
}): PromptAnalytics {
  const { periods } = input;
  const summary = summarisePeriods(input.totals);
  const total = summary.current.total;
  const competitors = input.competitors
    .map((c) => ({ competitor: c.name, mentions: c.mentions, mention_rate: rate(c.mentions, total) }))
    .sort((a, b) => b.mentions - a.mentions || compareCodePoints(a.competitor, b.competitor));
  return {
    overview: {
      range: periods.range,
      prompt: promptView(input.prompt, summary.current, summary.previous),
      mention_rate: summary.mention_rate,
      citation_rate: summary.citation_rate,
      trend_series: summary.trend_series,
    },
    platforms: summary.platforms,
    competitors,
    total_snapshots: total,
  };
}
