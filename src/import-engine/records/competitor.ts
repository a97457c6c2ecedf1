import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { competitorNameKey } from '../tables/visibility.js';

/** The competitors a workspace tracks. */
export const competitor: RecordType<ImportRecords['competitor']> = {
  ...formatType('competitor'),
  open(io, { workspaceId }) {
    const rows = io.competitors;
    return {
      apply(record, ctx) {
        const existing = ctx.isNew ? undefined : rows.stored(record.id);
        if (existing && existing.name === record.name && existing.domain === record.domain) return 'unchanged';
        const key = competitorNameKey(record.name);
        const clash = rows.namedLike(key, record.id);
        if (clash) return ctx.fail('name', `competitor ${clash[0]} of this workspace is already named ${JSON.stringify(clash[1])} (names are matched case-insensitively)`);
        rows.write({ id: record.id, workspace_id: workspaceId, name: record.name, name_key: key, domain: record.domain }, existing === undefined);
        return existing ? 'updated' : 'inserted';
      },
      referredBy(id) {
        const days = rows.mentionedDays(id);
        return days === 0 ? undefined : `answers on ${days} day${days === 1 ? '' : 's'} that name it (delete them or import them without it)`;
      },
    };
  },
};
