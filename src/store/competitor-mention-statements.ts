// Statements and parameters both databases run as written, word for word: the SQLite store
// (sqlite/visibility-overview.ts) and the PostgreSQL one (postgres/visibility-overview.ts) share them.
/**
 * Every competitor the workspace tracks with its mentions in [@current_start, @today] and
 * [@previous_start, @current_start − 1], from the workspace's daily competitor rollup.
 */
export const COMPETITOR_PERIOD_MENTIONS = `SELECT c.id, c.name, c.domain, coalesce(m.current, 0) AS current, coalesce(m.previous, 0) AS previous
  FROM competitors c
  LEFT JOIN (
    SELECT competitor_id,
      sum(CASE WHEN day >= @current_start THEN mentions ELSE 0 END) AS current,
      sum(CASE WHEN day < @current_start THEN mentions ELSE 0 END) AS previous
    FROM workspace_competitor_daily
    WHERE workspace_id = @workspace_id AND day BETWEEN @previous_start AND @today
    GROUP BY competitor_id
  ) m ON m.competitor_id = c.id
  WHERE c.workspace_id = @workspace_id`;

/** COMPETITOR_PERIOD_MENTIONS's named parameters. */
export function competitorPeriodParams(workspaceId: string, days: { previousStart: number; currentStart: number; today: number }): Record<string, unknown> {
  return { workspace_id: workspaceId, previous_start: days.previousStart, current_start: days.currentStart, today: days.today };
}
