import type { DailyCounts } from './visibility-rows.js';

export interface SetupCountsRow {
  competitor_count: number;
  total: number;
  pending: number;
  generating: number;
  active: number;
  last_collected_ms: number | null;
}

/** A tracked competitor and its mentions in the current and the previous period. */
export interface CompetitorPeriodMentions {
  id: string;
  name: string;
  domain: string;
  current: number;
  previous: number;
}

/**
 * Workspace-wide visibility reads, from the workspace rollups over a bounded day range, never the
 * snapshots, so they cost the same for 5 prompts as for 500.
 */
export interface VisibilityOverviewStore {
  setupCounts(workspaceId: string): Promise<SetupCountsRow>;
  /** The workspace's rollup rows of days [fromDay, toDay] (one platform's when given), at most one per (day, platform). */
  workspaceDaily(workspaceId: string, fromDay: number, toDay: number, platform?: string): Promise<DailyCounts[]>;
  /** Every tracked competitor with its mentions in [currentStart, today] and [previousStart, currentStart − 1]. */
  competitorMentions(workspaceId: string, days: { previousStart: number; currentStart: number; today: number }): Promise<CompetitorPeriodMentions[]>;
}
