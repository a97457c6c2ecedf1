import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../../../generated/import-format.js';
import { createSyncWorkspaceProfileStore } from '../../workspace-profile.js';
import { PLATFORMS } from '../../../interfaces/visibility-rows.js';
import { normaliseDomain } from '../../../domains.js';

/** Whether every field of `next` holds the same value in `existing` (arrays compared in order). */
export function sameValues<T extends object>(existing: T, next: T): boolean {
  return (Object.keys(next) as Array<keyof T>).every((k) => JSON.stringify(existing[k]) === JSON.stringify(next[k]));
}

/** The workspace's brand profile: one per workspace, the latest import wins. */
export const workspaceProfile: RecordType<ImportRecords['workspace_profile']> = {
  ...formatType('workspace_profile'),
  open(db, { workspaceId }) {
    const profiles = createSyncWorkspaceProfileStore(db);
    return {
      apply(record) {
        const next = {
          id: record.id,
          workspace_id: workspaceId,
          brand_name: record.brand_name,
          domains: [...new Set(record.domains.map(normaliseDomain))],
          tracked_platforms: PLATFORMS.filter((p) => record.tracked_platforms.includes(p)),
          collection_cadence: record.collection_cadence,
        };
        const existing = profiles.getProfile(workspaceId);
        if (existing && sameValues(existing, next)) return 'unchanged';
        profiles.upsertProfile(next);
        return existing ? 'updated' : 'inserted';
      },
    };
  },
};
