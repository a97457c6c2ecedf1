import type { components } from '../../generated/openapi.js';
import type { Store } from '../store/index.js';

export type VisibilitySetup = components['schemas']['VisibilitySetup'];

/** How tracking is set up; the profile's fields are empty until a profile is imported. */
export async function readVisibilitySetup(store: Store, workspaceId: string): Promise<VisibilitySetup> {
  const [profile, counts] = await Promise.all([store.workspaceProfile.getProfile(workspaceId), store.visibilityOverview.setupCounts(workspaceId)]);
  return {
    brand_name: profile?.brand_name ?? null,
    domains: profile?.domains ?? [],
    tracked_platforms: profile?.tracked_platforms ?? [],
    collection_cadence: profile?.collection_cadence ?? null,
    competitor_count: counts.competitor_count,
    prompt_counts: { total: counts.total, pending: counts.pending, generating: counts.generating, active: counts.active },
    last_collected_at: counts.last_collected_ms === null ? null : new Date(counts.last_collected_ms).toISOString(),
  };
}
