import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../../../generated/import-format.js';
import { createCompetitorStatements } from '../../visibility-import.js';

/** Snapshots name competitors case-insensitively, so the lower-cased name is the workspace-unique key. */
export function competitorNameKey(name: string): string {
  return name.toLowerCase();
}

/** The competitors a workspace tracks. */
export const competitor: RecordType<ImportRecords['competitor']> = {
  ...formatType('competitor'),
  open(db, { workspaceId }) {
    const { get, namedLike, insert, update, mentionedDays } = createCompetitorStatements(db);
    return {
      apply(record, ctx) {
        const existing = ctx.isNew ? undefined : (get.get(record.id) as [string, string] | undefined);
        if (existing && existing[0] === record.name && existing[1] === record.domain) return 'unchanged';
        const key = competitorNameKey(record.name);
        const clash = namedLike.get(workspaceId, key, record.id) as [string, string] | undefined;
        if (clash) return ctx.fail('name', `competitor ${clash[0]} of this workspace is already named ${JSON.stringify(clash[1])} (names are matched case-insensitively)`);
        if (!existing) {
          insert.run(record.id, workspaceId, record.name, key, record.domain);
          return 'inserted';
        }
        update.run(record.name, key, record.domain, record.id);
        return 'updated';
      },
      referredBy(id) {
        const days = mentionedDays.get(workspaceId, id) as number;
        return days === 0 ? undefined : `answers on ${days} day${days === 1 ? '' : 's'} that name it (delete them or import them without it)`;
      },
    };
  },
};
