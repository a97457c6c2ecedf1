// A workspace's profile and plan (migration 030): one row per workspace each, replaced whole by the
// import, the same in every database.
import { wholeRowTable } from '../../store/whole-row-saves.js';
import type { SavedRow } from '../saved-rows.js';

export const WORKSPACE_PROFILES = wholeRowTable<null>(
  'workspace_profiles',
  ['workspace_id', 'id', 'brand_name', 'domains', 'tracked_platforms', 'collection_cadence'],
  () => null,
);

export const WORKSPACE_PLANS = wholeRowTable<null>(
  'workspace_plans',
  ['workspace_id', 'id', 'name', 'tracked_prompts_limit', 'articles_per_month_limit', 'period_start', 'period_end'],
  () => null,
);

/** The one row of a workspace in a table keyed by workspace (its profile, its plan). */
export interface WorkspaceRow {
  get(): SavedRow | undefined;
  put(row: SavedRow): void;
}
