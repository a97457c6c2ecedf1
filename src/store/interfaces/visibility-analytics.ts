import type { CompetitorCount, Counts, PeriodTotals, Periods } from './visibility-rows.js';

/** The day bounds of a range's two periods that the analytics reads take. */
export type PeriodBounds = Pick<Periods, 'currentStart' | 'today' | 'previousStart' | 'previousEnd'>;

/** One prompt's snapshot counts over a current and a previous period. */
export interface PromptPeriodCounts {
  prompt_id: string;
  current: Counts;
  previous: Counts;
}

/**
 * Analytics reads of a prompt, from running totals, never the snapshots: a request costs the same
 * whatever the history or the number of answers a day.
 */
export interface VisibilityAnalyticsStore {
  /** The prompt's snapshot totals over both periods of a range. */
  promptPeriodTotals(promptId: string, periods: PeriodBounds): Promise<PeriodTotals>;
  /** Every competitor the workspace tracks, with the prompt's snapshots naming it in [fromDay, toDay]. */
  promptCompetitorMentions(workspaceId: string, promptId: string, fromDay: number, toDay: number): Promise<CompetitorCount[]>;
  /**
   * Per prompt, snapshot counts of the current period [currentStart, today] and the previous one
   * [previousStart, currentStart − 1]. Prompts without any snapshot up to today are absent.
   */
  promptPeriodCounts(promptIds: readonly string[], periods: PeriodBounds): Promise<PromptPeriodCounts[]>;
}
