import type { CompetitorPeriodMentions, SetupCountsRow, VisibilityOverviewStore } from '../interfaces/visibility-overview.js';
import type { DailyCounts } from '../interfaces/visibility-rows.js';
import { COMPETITOR_PERIOD_MENTIONS, competitorPeriodParams } from '../competitor-mention-statements.js';
import { row, rows, type Queryable } from './query.js';

/**
 * Workspace-wide visibility reads over the workspace rollups, as `../sqlite/visibility-overview.ts`
 * reads them: the same rows in the order SQLite's plans give them (the primary key's (day,
 * platform) for the rollups, the (workspace_id, name_key) index for the competitors), said here
 * with ORDER BY because PostgreSQL promises no order without one.
 */
const STATEMENTS = {
  // count(*) FILTER is a BIGINT, read as a number; SQLite's sum() of a comparison is 0 over no row.
  setupCounts: `SELECT (SELECT count(*) FROM competitors WHERE workspace_id = @workspace_id) AS competitor_count,
       count(*) AS total,
       count(*) FILTER (WHERE status = 'PENDING') AS pending,
       count(*) FILTER (WHERE status = 'GENERATING') AS generating,
       count(*) FILTER (WHERE status = 'ACTIVE') AS active,
       max(last_collected_ms) AS last_collected_ms
     FROM prompts WHERE workspace_id = @workspace_id`,
  workspaceDaily: `SELECT day, platform, total, mentioned, cited FROM workspace_daily
     WHERE workspace_id = @workspace_id AND day BETWEEN @from_day AND @to_day AND (CAST(@platform AS TEXT) IS NULL OR platform = @platform)
     ORDER BY day, platform`,
  competitorMentions: `${COMPETITOR_PERIOD_MENTIONS} ORDER BY c.name_key`,
};

export function createPostgresVisibilityOverviewStore(db: Queryable): VisibilityOverviewStore {
  return {
    async setupCounts(workspaceId: string): Promise<SetupCountsRow> {
      return (await row<SetupCountsRow>(db, STATEMENTS.setupCounts, { workspace_id: workspaceId }))!;
    },
    workspaceDaily(workspaceId: string, fromDay: number, toDay: number, platform?: string): Promise<DailyCounts[]> {
      return rows<DailyCounts>(db, STATEMENTS.workspaceDaily, { workspace_id: workspaceId, from_day: fromDay, to_day: toDay, platform: platform ?? null });
    },
    competitorMentions(workspaceId: string, days: { previousStart: number; currentStart: number; today: number }): Promise<CompetitorPeriodMentions[]> {
      return rows<CompetitorPeriodMentions>(db, STATEMENTS.competitorMentions, competitorPeriodParams(workspaceId, days));
    },
  };
}
