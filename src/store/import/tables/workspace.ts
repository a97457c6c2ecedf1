// The stored form of a workspace's profile and plan (migration 030): one row per workspace each,
// the same in every database.
import type { SavedRow } from '../saved-rows.js';

export const WORKSPACE_PROFILE_COLUMNS = ['workspace_id', 'id', 'brand_name', 'domains', 'tracked_platforms', 'collection_cadence'] as const;
export const WORKSPACE_PLAN_COLUMNS = [
  'workspace_id', 'id', 'name', 'tracked_prompts_limit', 'articles_per_month_limit', 'period_start', 'period_end',
] as const;

/** The one row of a workspace in a table keyed by workspace (its profile, its plan). */
export interface WorkspaceRow {
  get(): SavedRow | undefined;
  put(row: SavedRow): void;
}
