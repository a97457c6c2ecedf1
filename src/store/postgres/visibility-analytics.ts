import type { PeriodBounds, PromptPeriodCounts, VisibilityAnalyticsStore } from '../interfaces/visibility-analytics.js';
import { NO_COUNTS, PLATFORMS, type CompetitorCount, type Counts, type PeriodTotals, type Platform } from '../interfaces/visibility-rows.js';
import { rows, type Queryable } from './query.js';

/**
 * Analytics reads from the running-total tables (migration 011), never the snapshots, as
 * `../sqlite/visibility-analytics.ts` reads them: a series' running total at an edge day is its
 * row with the greatest day <= the edge, one backward seek of the primary key (a LATERAL
 * subquery with ORDER BY day DESC LIMIT 1), however dense the history. The edge days of a range:
 * 0 = the day before the previous period, 1 = the day before the current one, 2 = today; a
 * period's sums are the running totals at its closing edge minus those at its opening edge.
 */
const EDGES = '(VALUES (0, CAST(@previous_before AS INTEGER)), (1, CAST(@current_before AS INTEGER)), (2, CAST(@today AS INTEGER))) AS e(edge, day)';

// SQLite's statements return their rows in the order of their loops: the ids (or platforms) as
// given, then the edges. The results are built from the rows in that order, so these say it.
const STATEMENTS = {
  // The current period's days, each with its own sums: at most `range` rows.
  promptDays: 'SELECT day, total, mentioned, cited FROM prompt_day_totals WHERE prompt_id = ? AND day BETWEEN ? AND ? ORDER BY day',
  promptEdges: `SELECT j.id AS series, e.edge, r.run_total, r.run_mentioned, r.run_cited
     FROM unnest(CAST(@prompt_ids AS TEXT[])) WITH ORDINALITY AS j(id, n)
     CROSS JOIN ${EDGES}
     CROSS JOIN LATERAL (
       SELECT run_total, run_mentioned, run_cited FROM prompt_day_totals
       WHERE prompt_id = j.id AND day <= e.day ORDER BY day DESC LIMIT 1
     ) AS r
     ORDER BY j.n, e.edge`,
  // Edges 1 and 2 (the current period) of each platform of one prompt, in the contract's order.
  platformEdges: `SELECT p.platform AS series, e.edge, r.run_total, r.run_mentioned, r.run_cited
     FROM unnest(CAST(@platforms AS TEXT[])) WITH ORDINALITY AS p(platform, n)
     CROSS JOIN ${EDGES}
     CROSS JOIN LATERAL (
       SELECT run_total, run_mentioned, run_cited FROM prompt_platform_running
       WHERE prompt_id = @prompt_id AND platform = p.platform AND day <= e.day ORDER BY day DESC LIMIT 1
     ) AS r
     WHERE e.edge > 0
     ORDER BY p.n, e.edge`,
  // Competitors in the order SQLite reads them: its (workspace_id, name_key) unique index.
  promptCompetitorMentions: `SELECT c.name,
       coalesce((SELECT run_mentions FROM prompt_competitor_running
                 WHERE prompt_id = @prompt_id AND competitor_id = c.id AND day <= @to_day ORDER BY day DESC LIMIT 1), 0)
       - coalesce((SELECT run_mentions FROM prompt_competitor_running
                 WHERE prompt_id = @prompt_id AND competitor_id = c.id AND day < @from_day ORDER BY day DESC LIMIT 1), 0) AS mentions
     FROM competitors c
     WHERE c.workspace_id = @workspace_id
     ORDER BY c.name_key`,
};

/** A statement's row: the series (a prompt id or a platform), the edge and the running totals there. */
interface EdgeRow<K> {
  series: K;
  edge: 0 | 1 | 2;
  run_total: number;
  run_mentioned: number;
  run_cited: number;
}

export function createPostgresVisibilityAnalyticsStore(db: Queryable): VisibilityAnalyticsStore {
  function edgeParams(periods: PeriodBounds) {
    return { previous_before: periods.previousStart - 1, current_before: periods.currentStart - 1, today: periods.today };
  }

  /** Each prompt's running totals at the three edges; prompts without any row up to today are absent. */
  async function promptEdges(promptIds: readonly string[], periods: PeriodBounds): Promise<Map<string, RunningEdges>> {
    return groupEdges(await rows<EdgeRow<string>>(db, STATEMENTS.promptEdges, { prompt_ids: promptIds, ...edgeParams(periods) }));
  }

  return {
    async promptPeriodTotals(promptId: string, periods: PeriodBounds): Promise<PeriodTotals> {
      const [days, prompt, platforms] = await Promise.all([
        rows<Counts & { day: number }>(db, STATEMENTS.promptDays, [promptId, periods.currentStart, periods.today]),
        promptEdges([promptId], periods),
        rows<EdgeRow<Platform>>(db, STATEMENTS.platformEdges, { prompt_id: promptId, platforms: PLATFORMS, ...edgeParams(periods) }),
      ]);
      const edges = prompt.get(promptId) ?? emptyEdges();
      return {
        previous: between(edges[0], edges[1]),
        days,
        platforms: [...groupEdges(platforms)].map(([platform, e]) => ({ platform, ...between(e[1], e[2]) })),
      };
    },
    promptCompetitorMentions(workspaceId: string, promptId: string, fromDay: number, toDay: number): Promise<CompetitorCount[]> {
      return rows<CompetitorCount>(db, STATEMENTS.promptCompetitorMentions, {
        workspace_id: workspaceId,
        prompt_id: promptId,
        from_day: fromDay,
        to_day: toDay,
      });
    },
    async promptPeriodCounts(promptIds: readonly string[], periods: PeriodBounds): Promise<PromptPeriodCounts[]> {
      if (promptIds.length === 0) return [];
      return [...(await promptEdges(promptIds, periods))].map(([prompt_id, e]) => ({ prompt_id, current: between(e[1], e[2]), previous: between(e[0], e[1]) }));
    },
  };
}

/** A series' running totals at edges 0, 1 and 2 (see EDGES); zero where it has no row yet. */
type RunningEdges = [Counts, Counts, Counts];

function emptyEdges(): RunningEdges {
  return [NO_COUNTS, NO_COUNTS, NO_COUNTS];
}

function groupEdges<K>(edgeRows: readonly EdgeRow<K>[]): Map<K, RunningEdges> {
  const bySeries = new Map<K, RunningEdges>();
  for (const r of edgeRows) {
    let edges = bySeries.get(r.series);
    if (!edges) bySeries.set(r.series, (edges = emptyEdges()));
    edges[r.edge] = { total: r.run_total, mentioned: r.run_mentioned, cited: r.run_cited };
  }
  return bySeries;
}

/** The snapshots of the days after edge `from` up to and including edge `to`. */
function between(from: Counts, to: Counts): Counts {
  return { total: to.total - from.total, mentioned: to.mentioned - from.mentioned, cited: to.cited - from.cited };
}
