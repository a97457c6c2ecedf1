import type { Db } from './database.js';
import { NO_COUNTS, type CompetitorCount, type Counts, type PeriodTotals } from '../analytics/prompt-analytics.js';
import type { Periods } from '../analytics/periods.js';
import { PLATFORMS, type Platform } from '../analytics/platforms.js';

type PeriodBounds = Pick<Periods, 'currentStart' | 'today' | 'previousStart' | 'previousEnd'>;

/** One prompt's snapshot counts over a current and a previous period. */
export interface PromptPeriodCounts {
  prompt_id: string;
  current: Counts;
  previous: Counts;
}

/**
 * Analytics reads, from the running-total tables (migration 011), never the snapshots: a period's
 * sums are the difference of two running totals, so a request costs the same whatever the history
 * or the number of answers a day; only the trend reads one row per day of the current period.
 */
export function createVisibilityAnalyticsStore(db: Db) {
  // The running totals of a series at the edge days given (greatest row with day <= edge), one
  // row per (series, edge) that has one: two index seeks each, however dense the history.
  const platformValues = PLATFORMS.map((p) => `('${p}')`).join(', ');
  const statements = {
    // The current period's days, each with its own sums: at most `range` rows.
    promptDays: db
      .prepare('SELECT day, total, mentioned, cited FROM prompt_day_totals WHERE prompt_id = ? AND day BETWEEN ? AND ?')
      .raw(),
    // Edge 0 = the day before the previous period, 1 = the day before the current one, 2 = today.
    promptEdges: db
      .prepare(
        `SELECT e.edge, r.run_total, r.run_mentioned, r.run_cited
         FROM (SELECT 0 AS edge, @previous_before AS day UNION ALL SELECT 1, @current_before UNION ALL SELECT 2, @today) e
         JOIN prompt_day_totals r ON r.prompt_id = @prompt_id
           AND r.day = (SELECT day FROM prompt_day_totals WHERE prompt_id = @prompt_id AND day <= e.day ORDER BY day DESC LIMIT 1)`,
      )
      .raw(),
    platformEdges: db
      .prepare(
        `WITH platforms(platform) AS (VALUES ${platformValues})
         SELECT p.platform, e.edge, r.run_total, r.run_mentioned, r.run_cited
         FROM platforms p
         CROSS JOIN (SELECT 1 AS edge, @current_before AS day UNION ALL SELECT 2, @today) e
         JOIN prompt_platform_running r ON r.prompt_id = @prompt_id AND r.platform = p.platform
           AND r.day = (SELECT day FROM prompt_platform_running WHERE prompt_id = @prompt_id AND platform = p.platform AND day <= e.day ORDER BY day DESC LIMIT 1)`,
      )
      .raw(),
    promptCompetitorMentions: db.prepare(
      `SELECT c.name,
         coalesce((SELECT run_mentions FROM prompt_competitor_running
                   WHERE prompt_id = @prompt_id AND competitor_id = c.id AND day <= @to_day ORDER BY day DESC LIMIT 1), 0)
         - coalesce((SELECT run_mentions FROM prompt_competitor_running
                   WHERE prompt_id = @prompt_id AND competitor_id = c.id AND day < @from_day ORDER BY day DESC LIMIT 1), 0) AS mentions
       FROM competitors c
       WHERE c.workspace_id = @workspace_id`,
    ),
    // The same three edges for a whole page of prompts (their ids as a JSON array) in one statement.
    pageEdges: db
      .prepare(
        `SELECT j.value, e.edge, r.run_total, r.run_mentioned, r.run_cited
         FROM json_each(@prompt_ids) j
         CROSS JOIN (SELECT 0 AS edge, @previous_before AS day UNION ALL SELECT 1, @current_before UNION ALL SELECT 2, @today) e
         JOIN prompt_day_totals r ON r.prompt_id = j.value
           AND r.day = (SELECT day FROM prompt_day_totals WHERE prompt_id = j.value AND day <= e.day ORDER BY day DESC LIMIT 1)`,
      )
      .raw(),
  };

  function edgeParams(periods: PeriodBounds) {
    return { previous_before: periods.previousStart - 1, current_before: periods.currentStart - 1, today: periods.today };
  }

  return {
    /** The prompt's snapshot totals over both periods of a range, from at most range + 15 rows. */
    promptPeriodTotals(promptId: string, periods: PeriodBounds): PeriodTotals {
      const days = (statements.promptDays.all(promptId, periods.currentStart, periods.today) as Array<[number, number, number, number]>).map(
        ([day, total, mentioned, cited]) => ({ day, total, mentioned, cited }),
      );
      const edges = runningEdges(statements.promptEdges.all({ prompt_id: promptId, ...edgeParams(periods) }) as EdgeRow[]);
      const platforms = new Map<Platform, RunningEdges>();
      for (const [platform, edge, total, mentioned, cited] of statements.platformEdges.all({ prompt_id: promptId, ...edgeParams(periods) }) as Array<
        [Platform, 1 | 2, number, number, number]
      >) {
        let entry = platforms.get(platform);
        if (!entry) platforms.set(platform, (entry = emptyEdges()));
        entry[edge] = { total, mentioned, cited };
      }
      return {
        previous: between(edges[0], edges[1]),
        days,
        platforms: [...platforms].map(([platform, e]) => ({ platform, ...between(e[1], e[2]) })),
      };
    },
    /** Every competitor the workspace tracks, with the prompt's snapshots naming it in [fromDay, toDay]. */
    promptCompetitorMentions(workspaceId: string, promptId: string, fromDay: number, toDay: number): CompetitorCount[] {
      return statements.promptCompetitorMentions.all({ workspace_id: workspaceId, prompt_id: promptId, from_day: fromDay, to_day: toDay }) as CompetitorCount[];
    },
    /**
     * Per prompt, snapshot counts of the current period [currentStart, today] and the previous one
     * [previousStart, currentStart − 1]. Prompts without any snapshot up to today are absent.
     */
    promptPeriodCounts(promptIds: readonly string[], periods: PeriodBounds): PromptPeriodCounts[] {
      if (promptIds.length === 0) return [];
      const rows = statements.pageEdges.all({ prompt_ids: JSON.stringify(promptIds), ...edgeParams(periods) }) as Array<[string, ...EdgeRow]>;
      const byPrompt = new Map<string, RunningEdges>();
      for (const [promptId, edge, total, mentioned, cited] of rows) {
        let entry = byPrompt.get(promptId);
        if (!entry) byPrompt.set(promptId, (entry = emptyEdges()));
        entry[edge] = { total, mentioned, cited };
      }
      return [...byPrompt].map(([prompt_id, e]) => ({ prompt_id, current: between(e[1], e[2]), previous: between(e[0], e[1]) }));
    },
  };
}

/** A series' running totals at edge 0, 1 and 2 (see promptEdges); zero where it has no row yet. */
type RunningEdges = [Counts, Counts, Counts];
type EdgeRow = [0 | 1 | 2, number, number, number];

function emptyEdges(): RunningEdges {
  return [NO_COUNTS, NO_COUNTS, NO_COUNTS];
}

function runningEdges(rows: readonly EdgeRow[]): RunningEdges {
  const edges = emptyEdges();
  for (const [edge, total, mentioned, cited] of rows) edges[edge] = { total, mentioned, cited };
  return edges;
}

/** The snapshots of the days after edge `from` up to and including edge `to`. */
function between(from: Counts, to: Counts): Counts {
  return { total: to.total - from.total, mentioned: to.mentioned - from.mentioned, cited: to.cited - from.cited };
}

export type VisibilityAnalyticsStore = ReturnType<typeof createVisibilityAnalyticsStore>;
