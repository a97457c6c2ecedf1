import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { PLATFORMS } from '../../store/interfaces/visibility-rows.js';
import { normaliseDomain } from '../../store/domains.js';
import { savePlan } from '../../store/whole-row-saves.js';
import { WORKSPACE_PROFILES } from '../tables/workspace.js';

/** The workspace's brand profile: one per workspace, the latest import wins. */
export const workspaceProfile: RecordType<ImportRecords['workspace_profile']> = {
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
