import type { Platform } from '../interfaces/visibility-rows.js';
import type { ApiRequestCount, DailyApiRequests, WorkspacePlanRow, WorkspaceProfile, WorkspaceProfileStore } from '../interfaces/workspace-profile.js';
import { writeWithoutWaiting, type Db } from './database.js';
import { promised } from './promised.js';
import { WORKSPACE_PROFILE_SQL } from '../workspace-profile-statements.js';

interface ProfileRow extends Omit<WorkspaceProfile, 'domains' | 'tracked_platforms'> {
  domains: string;
  tracked_platforms: string;
}

/** The brand profile, the plan and the API request counters of a workspace, synchronously: for the import's transaction. */
function createSyncWorkspaceProfileStore(db: Db) {
  const statements = {
    getProfile: db.prepare(WORKSPACE_PROFILE_SQL.getProfile),
    upsertProfile: db.prepare(WORKSPACE_PROFILE_SQL.upsertProfile),
    getPlan: db.prepare(WORKSPACE_PROFILE_SQL.getPlan),
    upsertPlan: db.prepare(WORKSPACE_PROFILE_SQL.upsertPlan),
    // One statement for the whole batch, so a flush costs one write however many workspaces it
    // carries. `WHERE true` resolves SQLite's parsing ambiguity between a join and the upsert.
    addApiRequests: db.prepare(
      `INSERT INTO api_request_daily (workspace_id, day, requests)
       SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true
       ON CONFLICT (workspace_id, day) DO UPDATE SET requests = requests + excluded.requests`,
    ),
    countPrompts: db.prepare(WORKSPACE_PROFILE_SQL.countPrompts).pluck(),
    countArticlesWritten: db.prepare(WORKSPACE_PROFILE_SQL.countArticlesWritten).pluck(),
    sumApiRequests: db.prepare(WORKSPACE_PROFILE_SQL.sumApiRequests).pluck(),
    listApiRequestsByDay: db.prepare(WORKSPACE_PROFILE_SQL.listApiRequestsByDay),
  };

  return {
    getProfile(workspaceId: string): WorkspaceProfile | undefined {
      const row = statements.getProfile.get(workspaceId) as ProfileRow | undefined;
      if (!row) return undefined;
      return { ...row, domains: JSON.parse(row.domains) as string[], tracked_platforms: JSON.parse(row.tracked_platforms) as Platform[] };
    },
    upsertProfile(profile: WorkspaceProfile): void {
      statements.upsertProfile.run({
        ...profile,
        domains: JSON.stringify(profile.domains),
        tracked_platforms: JSON.stringify(profile.tracked_platforms),
      });
    },
    getPlan(workspaceId: string): WorkspacePlanRow | undefined {
      return statements.getPlan.get(workspaceId) as WorkspacePlanRow | undefined;
    },
    upsertPlan(plan: WorkspacePlanRow): void {
      statements.upsertPlan.run(plan);
    },
    addApiRequests(counts: readonly ApiRequestCount[]): void {
      if (counts.length > 0) statements.addApiRequests.run(JSON.stringify(counts));
    },
    countPrompts(workspaceId: string): number {
      return statements.countPrompts.get(workspaceId) as number;
    },
    /** Articles written from `fromInstant` (included) to `untilInstant` (excluded), RFC 3339 UTC. */
    countArticlesWritten(workspaceId: string, fromInstant: string, untilInstant: string): number {
      return statements.countArticlesWritten.get(workspaceId, fromInstant, untilInstant) as number;
    },
    /** Requests recorded for the workspace on the epoch days `fromDay..toDay`, both included. */
    sumApiRequests(workspaceId: string, fromDay: number, toDay: number): number {
      return statements.sumApiRequests.get(workspaceId, fromDay, toDay) as number;
    },
    listApiRequestsByDay(workspaceId: string, fromDay: number, toDay: number): DailyApiRequests[] {
      return statements.listApiRequestsByDay.all(workspaceId, fromDay, toDay) as DailyApiRequests[];
    },
  };
}

export function createWorkspaceProfileStore(db: Db): WorkspaceProfileStore {
  const profiles = createSyncWorkspaceProfileStore(db);
  return promised({
    ...profiles,
    addApiRequests: (counts: readonly ApiRequestCount[]): void => writeWithoutWaiting(db, () => profiles.addApiRequests(counts)),
  });
}
