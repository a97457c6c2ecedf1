import type { Db } from './database.js';
import { NO_COUNTS, type CompetitorCount, type Counts, type PeriodTotals } from '../analytics/prompt-analytics.js';
import type { Periods } from '../analytics/periods.js';
import type { Platform } from '../analytics/platforms.js';

type PeriodBounds = Pick<Periods, 'currentStart' | 'today' | 'previousStart' | 'previousEnd'>;

/** One prompt's snapshot counts over a current and a previous period. */
export interface PromptPeriodCounts {
  prompt_id: string;
  current: Counts;
  previous: Counts;
}

/**
 * Analytics reads. Every statement reads the daily rollup tables by primary key over a bounded
 * day range, never the snapshots, so its cost depends on the range asked for, not on history.
 */
export function createVisibilityAnalyticsStore(db: Db) {
  const statements = {
    // The prompt's period totals summed by SQLite (in C) and returned as at most range + 7 raw
    // rows, tagged 0 = a current day, 1 = a current platform, 2 = the previous period: turning
    // every (day, platform) row into a JavaScript value costs several times more.
    promptPeriodTotals: db.prepare(
      `SELECT 0, day, sum(total), sum(mentioned), sum(cited) FROM prompt_daily
       WHERE prompt_id = @prompt_id AND day BETWEEN @current_start AND @today
       GROUP BY day
       UNION ALL
       SELECT 1, platform, sum(total), sum(mentioned), sum(cited) FROM prompt_daily
       WHERE prompt_id = @prompt_id AND day BETWEEN @current_start AND @today
       GROUP BY platform
       UNION ALL
       SELECT 2, NULL, coalesce(sum(total), 0), coalesce(sum(mentioned), 0), coalesce(sum(cited), 0) FROM prompt_daily
       WHERE prompt_id = @prompt_id AND day BETWEEN @previous_start AND @previous_end`,
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
    // One statement for a whole page of prompts (the ids as a JSON array) instead of one per
    // prompt. Two plain grouped sums cost half of one pass with six CASE sums over the same rows.
    promptPeriodCounts: db.prepare(
      `SELECT prompt_id, 1, sum(total), sum(mentioned), sum(cited) FROM prompt_daily
       WHERE prompt_id IN (SELECT value FROM json_each(@prompt_ids)) AND day BETWEEN @current_start AND @today
       GROUP BY prompt_id
       UNION ALL
       SELECT prompt_id, 0, sum(total), sum(mentioned), sum(cited) FROM prompt_daily
       WHERE prompt_id IN (SELECT value FROM json_each(@prompt_ids)) AND day BETWEEN @previous_start AND @previous_end
       GROUP BY prompt_id`,
    ).raw(),
  };

  return {
    /** The prompt's snapshot totals over both periods of a range, from its rollup rows only. */
    promptPeriodTotals(promptId: string, periods: PeriodBounds): PeriodTotals {
      const rows = statements.promptPeriodTotals.all({
        prompt_id: promptId,
        current_start: periods.currentStart,
        today: periods.today,
        previous_start: periods.previousStart,
        previous_end: periods.previousEnd,
      }) as Array<[0 | 1 | 2, number | Platform | null, number, number, number]>;
      const days: Array<Counts & { day: number }> = [];
      const platforms: Array<Counts & { platform: Platform }> = [];
      let previous: Counts = { ...NO_COUNTS };
      for (const [kind, key, total, mentioned, cited] of rows) {
        if (kind === 0) days.push({ day: key as number, total, mentioned, cited });
        else if (kind === 1) platforms.push({ platform: key as Platform, total, mentioned, cited });
        else previous = { total, mentioned, cited };
      }
      return { previous, days, platforms };
    },
    /** Every competitor the workspace tracks, with the prompt's snapshots naming it in [fromDay, toDay]. */
    promptCompetitorMentions(workspaceId: string, promptId: string, fromDay: number, toDay: number): CompetitorCount[] {
      return statements.promptCompetitorMentions.all({ workspace_id: workspaceId, prompt_id: promptId, from_day: fromDay, to_day: toDay }) as CompetitorCount[];
    },
    /**
     * Per prompt, snapshot counts of the current period [currentStart, today] and the previous one
     * [previousStart, currentStart − 1]. Prompts without any rollup row in either are absent.
     */
    promptPeriodCounts(promptIds: readonly string[], periods: PeriodBounds): PromptPeriodCounts[] {
      if (promptIds.length === 0) return [];
      const rows = statements.promptPeriodCounts.all({
        prompt_ids: JSON.stringify(promptIds),
        current_start: periods.currentStart,
        today: periods.today,
        previous_start: periods.previousStart,
        previous_end: periods.previousEnd,
      }) as Array<[string, 0 | 1, number, number, number]>;
      const byPrompt = new Map<string, PromptPeriodCounts>();
      for (const [promptId, isCurrent, total, mentioned, cited] of rows) {
        let entry = byPrompt.get(promptId);
        if (!entry) byPrompt.set(promptId, (entry = { prompt_id: promptId, current: { ...NO_COUNTS }, previous: { ...NO_COUNTS } }));
        entry[isCurrent === 1 ? 'current' : 'previous'] = { total, mentioned, cited };
      }
      return [...byPrompt.values()];
    },
  };
}

export type VisibilityAnalyticsStore = ReturnType<typeof createVisibilityAnalyticsStore>;
