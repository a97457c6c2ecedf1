import type { PeriodBounds, PromptPeriodCounts, VisibilityAnalyticsStore } from '../interfaces/visibility-analytics.js';
import { NO_COUNTS, PLATFORMS, type CompetitorCount, type Counts, type PeriodTotals, type Platform } from '../interfaces/visibility-rows.js';
import type { Db } from './database.js';
import { promised } from './promised.js';

/**
 * Analytics reads, from the running-total tables (migration 011), never the snapshots: a period's
 * sums are the difference of two running totals, so a request costs the same whatever the history
 * or the number of answers a day; only the trend reads one row per day of the current period.
 */
// The edge days of a range, as a subquery: 0 = the day before the previous period, 1 = the day
// before the current one, 2 = today. A period's sums are the running totals at its closing edge
// minus those at its opening edge.
const EDGES = 'SELECT 0 AS edge, @previous_before AS day UNION ALL SELECT 1, @current_before UNION ALL SELECT 2, @today';

export function createVisibilityAnalyticsStore(db: Db): VisibilityAnalyticsStore {
  const platformValues = PLATFORMS.map((p) => `('${p}')`).join(', ');
  // Every query below reads a series' running total at an edge as its row with the greatest day
  // <= the edge: one index seek (ORDER BY day DESC LIMIT 1), however dense the history.
  const statements = {
    // The current period's days, each with its own sums: at most `range` rows.
    promptDays: db
      .prepare('SELECT day, total, mentioned, cited FROM prompt_day_totals WHERE prompt_id = ? AND day BETWEEN ? AND ?')
      .raw(),
    // The three edges of each prompt of a JSON array of ids (one prompt, or a page of the list).
    promptEdges: db
      .prepare(
        `SELECT j.value, e.edge, r.run_total, r.run_mentioned, r.run_cited
         FROM json_each(@prompt_ids) j
         CROSS JOIN (${EDGES}) e
         JOIN prompt_day_totals r ON r.prompt_id = j.value
           AND r.day = (SELECT day FROM prompt_day_totals WHERE prompt_id = j.value AND day <= e.day ORDER BY day DESC LIMIT 1)`,
      )
      .raw(),
    // Edges 1 and 2 (the current period) of each platform of one prompt.
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
  };

  function edgeParams(periods: PeriodBounds) {
    return { previous_before: periods.previousStart - 1, current_before: periods.currentStart - 1, today: periods.today };
  }

  /** Each prompt's running totals at the three edges; prompts without any row up to today are absent. */
  function promptEdges(promptIds: readonly string[], periods: PeriodBounds): Map<string, RunningEdges> {
    return groupEdges(statements.promptEdges.all({ prompt_ids: JSON.stringify(promptIds), ...edgeParams(periods) }) as EdgeRow<string>[]);
  }

  return promised({
    /** The prompt's snapshot totals over both periods of a range, from at most range + 15 rows. */
    promptPeriodTotals(promptId: string, periods: PeriodBounds): PeriodTotals {
      const days = (statements.promptDays.all(promptId, periods.currentStart, periods.today) as Array<[number, number, number, number]>).map(
        ([day, total, mentioned, cited]) => ({ day, total, mentioned, cited }),
      );
      const edges = promptEdges([promptId], periods).get(promptId) ?? emptyEdges();
      const platforms = groupEdges(statements.platformEdges.all({ prompt_id: promptId, ...edgeParams(periods) }) as EdgeRow<Platform>[]);
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
      return [...promptEdges(promptIds, periods)].map(([prompt_id, e]) => ({ prompt_id, current: between(e[1], e[2]), previous: between(e[0], e[1]) }));
    },
  });
}

/** A series' running totals at edges 0, 1 and 2 (see EDGES); zero where it has no row yet. */
type RunningEdges = [Counts, Counts, Counts];
/** A query row: the series (a prompt id or a platform), the edge and the running totals there. */
type EdgeRow<K> = [K, 0 | 1 | 2, number, number, number];

function emptyEdges(): RunningEdges {
  return [NO_COUNTS, NO_COUNTS, NO_COUNTS];
}

function groupEdges<K>(rows: readonly EdgeRow<K>[]): Map<K, RunningEdges> {
  const bySeries = new Map<K, RunningEdges>();
  for (const [series, edge, total, mentioned, cited] of rows) {
    let edges = bySeries.get(series);
    if (!edges) bySeries.set(series, (edges = emptyEdges()));
    edges[edge] = { total, mentioned, cited };
  }
  return bySeries;
}

/** The snapshots of the days after edge `from` up to and including edge `to`. */
function between(from: Counts, to: Counts): Counts {
  return { total: to.total - from.total, mentioned: to.mentioned - from.mentioned, cited: to.cited - from.cited };
}
