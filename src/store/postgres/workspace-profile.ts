import type { Platform } from '../interfaces/visibility-rows.js';
import type { ApiRequestCount, DailyApiRequests, WorkspacePlanRow, WorkspaceProfile, WorkspaceProfileStore } from '../interfaces/workspace-profile.js';
import type { PostgresPool } from './pool.js';
import { row, rows, run, value } from './query.js';
import { inTransactionWithoutWaiting } from './without-waiting.js';
import { WORKSPACE_PROFILE_SQL as SQL } from '../workspace-profile-statements.js';

interface ProfileRow extends Omit<WorkspaceProfile, 'domains' | 'tracked_platforms'> {
  domains: string;
  tracked_platforms: string;
}

/** The brand profile, the plan and the API request counters on PostgreSQL (`../interfaces/workspace-profile.ts`). */
export function createPostgresWorkspaceProfileStore(db: PostgresPool): WorkspaceProfileStore {
  return {
    async getProfile(workspaceId: string): Promise<WorkspaceProfile | undefined> {
      const found = await row<ProfileRow>(db, SQL.getProfile, [workspaceId]);
      if (!found) return undefined;
      return { ...found, domains: JSON.parse(found.domains) as string[], tracked_platforms: JSON.parse(found.tracked_platforms) as Platform[] };
    },
    async upsertProfile(profile: WorkspaceProfile): Promise<void> {
      await run(db, SQL.upsertProfile,
        { ...profile, domains: JSON.stringify(profile.domains), tracked_platforms: JSON.stringify(profile.tracked_platforms) });
    },
    getPlan: (workspaceId: string) => row<WorkspacePlanRow>(db, SQL.getPlan, [workspaceId]),
    async upsertPlan(plan: WorkspacePlanRow): Promise<void> {
      await run(db, SQL.upsertPlan, plan);
    },
    async addApiRequests(counts: readonly ApiRequestCount[]): Promise<void> {
      if (counts.length === 0) return;
      // One statement for the whole batch, as in SQLite. The batch's (workspace, day) pairs are
      // summed first: PostgreSQL refuses an upsert that meets the same row twice, where SQLite
      // adds each in turn. A background write: it gives up (DatabaseBusyError) rather than wait
      // on a row lock, as SQLite's gives up rather than wait for the write lock.
      await inTransactionWithoutWaiting(db, (tx) => run(tx, `INSERT INTO api_request_daily (workspace_id, day, requests)
        SELECT workspace_id, day, sum(requests)
        FROM unnest(CAST(? AS TEXT[]), CAST(? AS INTEGER[]), CAST(? AS BIGINT[])) AS batch (workspace_id, day, requests)
        GROUP BY workspace_id, day
        ON CONFLICT (workspace_id, day) DO UPDATE SET requests = api_request_daily.requests + excluded.requests`,
      [counts.map((c) => c[0]), counts.map((c) => c[1]), counts.map((c) => c[2])]));
    },
    countPrompts: async (workspaceId: string) => (await value<number>(db, SQL.countPrompts, [workspaceId]))!,
    countArticlesWritten: async (workspaceId: string, fromInstant: string, untilInstant: string) =>
      (await value<number>(db, SQL.countArticlesWritten, [workspaceId, fromInstant, untilInstant]))!,
    sumApiRequests: async (workspaceId: string, fromDay: number, toDay: number) =>
      (await value<number>(db, SQL.sumApiRequests, [workspaceId, fromDay, toDay]))!,
    listApiRequestsByDay: (workspaceId: string, fromDay: number, toDay: number) =>
      rows<DailyApiRequests>(db, SQL.listApiRequestsByDay, [workspaceId, fromDay, toDay]),
  };
}
