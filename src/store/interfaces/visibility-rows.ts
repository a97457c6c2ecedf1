// The shapes the visibility store reads and answers: prompts as stored, snapshot counts, period
// sums, the platforms and the two periods of a range. Defined here, at the bottom, so the store
// depends on nothing above it; the analytics functions (src/analytics/) compute from them.
import type { components } from '../../../generated/openapi.js';

type Schemas = components['schemas'];
export type PromptStatus = Schemas['PromptStatus'];
export type Platform = Schemas['Platform'];
export type RangeValue = Schemas['RangeValue'];

/** Every platform, in the order every response lists them (the contract's `Platform` order). */
export const PLATFORMS: readonly Platform[] = ['chatgpt', 'google_ai_overview', 'perplexity', 'gemini', 'grok', 'claude'];

/**
 * The two periods a range compares, as inclusive UTC day numbers: the current period is the N
 * days ending today (today included), the previous period the N days before it.
 */
export interface Periods {
  range: RangeValue;
  days: number;
  currentStart: number;
  today: number;
  previousStart: number;
  previousEnd: number;
}

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

