import type { Platform } from '../interfaces/visibility-rows.js';
import type { ApiRequestCount, WorkspacePlanRow, WorkspaceProfile, WorkspaceProfileStore } from '../interfaces/workspace-profile.js';
import { writeWithoutWaiting, type Db } from './database.js';
import { promised } from './promised.js';

interface ProfileRow extends Omit<WorkspaceProfile, 'domains' | 'tracked_platforms'> {
  domains: string;
  tracked_platforms: string;
}

/** The brand profile, the plan and the API request counters of a workspace, synchronously: for the import's transaction. */
export function createSyncWorkspaceProfileStore(db: Db) {
  const statements = {
    getProfile: db.prepare(
      'SELECT id, workspace_id, brand_name, domains, tracked_platforms, collection_cadence FROM workspace_profiles WHERE workspace_id = ?',
    ),
    upsertProfile: db.prepare(
      `INSERT INTO workspace_profiles (workspace_id, id, brand_name, domains, tracked_platforms, collection_cadence)
       VALUES (@workspace_id, @id, @brand_name, @domains, @tracked_platforms, @collection_cadence)
       ON CONFLICT (workspace_id) DO UPDATE SET id = excluded.id, brand_name = excluded.brand_name,
         domains = excluded.domains, tracked_platforms = excluded.tracked_platforms,
         collection_cadence = excluded.collection_cadence`,
    ),
    getPlan: db.prepare(
      `SELECT id, workspace_id, name, tracked_prompts_limit, articles_per_month_limit, period_start, period_end
       FROM workspace_plans WHERE workspace_id = ?`,
    ),
    upsertPlan: db.prepare(
      `INSERT INTO workspace_plans (workspace_id, id, name, tracked_prompts_limit, articles_per_month_limit, period_start, period_end)
       VALUES (@workspace_id, @id, @name, @tracked_prompts_limit, @articles_per_month_limit, @period_start, @period_end)
       ON CONFLICT (workspace_id) DO UPDATE SET id = excluded.id, name = excluded.name,
         tracked_prompts_limit = excluded.tracked_prompts_limit, articles_per_month_limit = excluded.articles_per_month_limit,
         period_start = excluded.period_start, period_end = excluded.period_end`,
    ),
    // One statement for the whole batch, so a flush costs one write however many workspaces it
    // carries. `WHERE true` resolves SQLite's parsing ambiguity between a join and the upsert.
    addApiRequests: db.prepare(
      `INSERT INTO api_request_daily (workspace_id, day, requests)
       SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true
       ON CONFLICT (workspace_id, day) DO UPDATE SET requests = requests + excluded.requests`,
    ),
    countPrompts: db.prepare('SELECT count(*) FROM prompts WHERE workspace_id = ?').pluck(),
    // written_on is RFC 3339 UTC text, so a half-open text range selects whole UTC days.
    countArticlesWritten: db.prepare(
      'SELECT count(*) FROM articles WHERE workspace_id = ? AND written_on >= ? AND written_on < ?',
    ).pluck(),
    sumApiRequests: db.prepare(
      'SELECT coalesce(sum(requests), 0) FROM api_request_daily WHERE workspace_id = ? AND day BETWEEN ? AND ?',
    ).pluck(),
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
  };
}

export type SyncWorkspaceProfileStore = ReturnType<typeof createSyncWorkspaceProfileStore>;

export function createWorkspaceProfileStore(db: Db): WorkspaceProfileStore {
  const profiles = createSyncWorkspaceProfileStore(db);
  return promised({
    ...profiles,
    addApiRequests: (counts: readonly ApiRequestCount[]): void => writeWithoutWaiting(db, () => profiles.addApiRequests(counts)),
  });
}
