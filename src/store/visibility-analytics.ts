import type { Db } from './database.js';
import type { CompetitorCount, Counts, DailyCounts } from '../analytics/prompt-analytics.js';
import type { Platform } from '../analytics/platforms.js';

/** One prompt's snapshot counts over a current and a previous period. */
export interface PromptPeriodCounts {
  prompt_id: string;
  current: Counts;
  previous: Counts;
}

interface PeriodCountsRow {
  prompt_id: string;
  current_total: number;
  current_mentioned: number;
  current_cited: number;
  previous_total: number;
  previous_mentioned: number;
  previous_cited: number;
}

/**
 * Analytics reads. Every statement reads the daily rollup tables by primary key over a bounded
 * day range, never the snapshots, so its cost depends on the range asked for, not on history.
 */
export function createVisibilityAnalyticsStore(db: Db) {
  const statements = {
    // Raw rows: better-sqlite3 builds row objects through the V8 API at about twice the cost of
    // the object literals below, and a 90d request reads up to 1,080 rows.
    promptDaily: db.prepare(
      `SELECT day, platform, total, mentioned, cited FROM prompt_daily
       WHERE prompt_id = @prompt_id AND day BETWEEN @from_day AND @to_day`,
    ).raw(),
    promptCompetitorMentions: db.prepare(
      `SELECT c.name, coalesce(m.mentions, 0) AS mentions
       FROM competitors c
       LEFT JOIN (
         SELECT competitor_id, sum(mentions) AS mentions FROM prompt_competitor_daily
         WHERE prompt_id = @prompt_id AND day BETWEEN @from_day AND @to_day
         GROUP BY competitor_id
       ) m ON m.competitor_id = c.id
       WHERE c.workspace_id = @workspace_id`,
    ),
    // One grouped read for a whole page of prompts (the ids as a JSON array) instead of one per prompt.
    promptPeriodCounts: db.prepare(
      `SELECT prompt_id,
         sum(CASE WHEN day >= @current_start THEN total ELSE 0 END) AS current_total,
         sum(CASE WHEN day >= @current_start THEN mentioned ELSE 0 END) AS current_mentioned,
         sum(CASE WHEN day >= @current_start THEN cited ELSE 0 END) AS current_cited,
         sum(CASE WHEN day < @current_start THEN total ELSE 0 END) AS previous_total,
         sum(CASE WHEN day < @current_start THEN mentioned ELSE 0 END) AS previous_mentioned,
         sum(CASE WHEN day < @current_start THEN cited ELSE 0 END) AS previous_cited
       FROM prompt_daily
       WHERE prompt_id IN (SELECT value FROM json_each(@prompt_ids)) AND day BETWEEN @previous_start AND @today
       GROUP BY prompt_id`,
    ),
  };

  return {
    /** The prompt's rollup rows of days [fromDay, toDay]: at most one per (day, platform). */
    promptDaily(promptId: string, fromDay: number, toDay: number): DailyCounts[] {
      const rows = statements.promptDaily.all({ prompt_id: promptId, from_day: fromDay, to_day: toDay }) as Array<[number, Platform, number, number, number]>;
      return rows.map(([day, platform, total, mentioned, cited]) => ({ day, platform, total, mentioned, cited }));
    },
    /** Every competitor the workspace tracks, with the prompt's snapshots naming it in [fromDay, toDay]. */
    promptCompetitorMentions(workspaceId: string, promptId: string, fromDay: number, toDay: number): CompetitorCount[] {
      return statements.promptCompetitorMentions.all({ workspace_id: workspaceId, prompt_id: promptId, from_day: fromDay, to_day: toDay }) as CompetitorCount[];
    },
    /**
     * Per prompt, snapshot counts of the current period [currentStart, today] and the previous one
     * [previousStart, currentStart − 1]. Prompts without any rollup row in either are absent.
     */
    promptPeriodCounts(promptIds: readonly string[], days: { previousStart: number; currentStart: number; today: number }): PromptPeriodCounts[] {
      if (promptIds.length === 0) return [];
      const rows = statements.promptPeriodCounts.all({
        prompt_ids: JSON.stringify(promptIds),
        previous_start: days.previousStart,
        current_start: days.currentStart,
        today: days.today,
      }) as PeriodCountsRow[];
      return rows.map((r) => ({
        prompt_id: r.prompt_id,
        current: { total: r.current_total, mentioned: r.current_mentioned, cited: r.current_cited },
        previous: { total: r.previous_total, mentioned: r.previous_mentioned, cited: r.previous_cited },
      }));
    },
  };
}

export type VisibilityAnalyticsStore = ReturnType<typeof createVisibilityAnalyticsStore>;
