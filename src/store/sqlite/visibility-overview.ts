import type { CompetitorPeriodMentions, SetupCountsRow, VisibilityOverviewStore } from '../interfaces/visibility-overview.js';
import type { DailyCounts, Platform } from '../interfaces/visibility-rows.js';
import { COMPETITOR_PERIOD_MENTIONS, competitorPeriodParams } from '../competitor-mention-statements.js';
import type { Db } from './database.js';
import { promised } from './promised.js';

/**
 * Workspace-wide visibility reads. Like the prompt analytics, they read the workspace rollups over
 * a bounded day range (at most one row per day and platform, or per day and competitor), never
 * the snapshots, so they cost the same for 5 prompts as for 500.
 */
export function createVisibilityOverviewStore(db: Db): VisibilityOverviewStore {
  const statements = {
    setupCounts: db.prepare(
      `SELECT (SELECT count(*) FROM competitors WHERE workspace_id = @workspace_id) AS competitor_count,
         count(*) AS total,
         coalesce(sum(status = 'PENDING'), 0) AS pending,
         coalesce(sum(status = 'GENERATING'), 0) AS generating,
         coalesce(sum(status = 'ACTIVE'), 0) AS active,
         max(last_collected_ms) AS last_collected_ms
       FROM prompts WHERE workspace_id = @workspace_id`,
    ),
    // Raw rows, as in the prompt analytics: building row objects through the V8 API costs twice
    // the object literals made from them.
    workspaceDaily: db.prepare(
      `SELECT day, platform, total, mentioned, cited FROM workspace_daily
       WHERE workspace_id = @workspace_id AND day BETWEEN @from_day AND @to_day`,
    ).raw(),
    workspaceDailyOfPlatform: db.prepare(
      `SELECT day, platform, total, mentioned, cited FROM workspace_daily
       WHERE workspace_id = @workspace_id AND day BETWEEN @from_day AND @to_day AND platform = @platform`,
    ).raw(),
    competitorMentions: db.prepare(COMPETITOR_PERIOD_MENTIONS),
  };

  return promised({
    setupCounts(workspaceId: string): SetupCountsRow {
      return statements.setupCounts.get({ workspace_id: workspaceId }) as SetupCountsRow;
    },
    /** The workspace's rollup rows of days [fromDay, toDay] (one platform's when given), at most one per (day, platform). */
    workspaceDaily(workspaceId: string, fromDay: number, toDay: number, platform?: string): DailyCounts[] {
      const params = { workspace_id: workspaceId, from_day: fromDay, to_day: toDay, platform };
      const rows = (platform === undefined ? statements.workspaceDaily.all(params) : statements.workspaceDailyOfPlatform.all(params)) as Array<[number, Platform, number, number, number]>;
      return rows.map(([day, p, total, mentioned, cited]) => ({ day, platform: p, total, mentioned, cited }));
    },
    /** Every tracked competitor with its mentions in [currentStart, today] and [previousStart, currentStart − 1]. */
    competitorMentions(workspaceId: string, days: { previousStart: number; currentStart: number; today: number }): CompetitorPeriodMentions[] {
      return statements.competitorMentions.all(competitorPeriodParams(workspaceId, days)) as CompetitorPeriodMentions[];
    },
  });
}
