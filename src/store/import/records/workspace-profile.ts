import { formatType, type RecordType } from '../record-type.js';
import { PLATFORMS, type Platform } from '../../interfaces/visibility-rows.js';
import type { CollectionCadence } from '../../interfaces/workspace-profile.js';
import { normaliseDomain } from '../../domains.js';
import { savePlan } from '../../whole-row-saves.js';
import { WORKSPACE_PROFILES } from '../tables/workspace.js';

export type WorkspaceProfileRecord = {
  type: 'workspace_profile';
  id: string;
  brand_name: string;
  domains: string[];
  tracked_platforms: Platform[];
  collection_cadence: CollectionCadence;
};

/** The workspace's brand profile: one per workspace, the latest import wins. */
export const workspaceProfile: RecordType<WorkspaceProfileRecord> = {
  ...formatType('workspace_profile'),
  open(io, { workspaceId }) {
    return {
      apply(record) {
        const next = {
          id: record.id,
          workspace_id: workspaceId,
          brand_name: record.brand_name,
          domains: JSON.stringify([...new Set(record.domains.map(normaliseDomain))]),
          tracked_platforms: JSON.stringify(PLATFORMS.filter((p) => record.tracked_platforms.includes(p))),
          collection_cadence: record.collection_cadence,
        };
        const plan = savePlan(WORKSPACE_PROFILES, io.workspaceProfile.get(), next);
        if (plan.write) io.workspaceProfile.put(next);
        return plan.result.outcome;
      },
    };
  },
};
