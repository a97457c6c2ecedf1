import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../../../generated/import-format.js';
import { createCategoryStatements } from '../../visibility-import.js';

/** Prompt categories. */
export const category: RecordType<ImportRecords['category']> = {
  ...formatType('category'),
  open(db, { workspaceId }) {
    const { get, insert, update } = createCategoryStatements(db);
    return {
      apply(record, ctx) {
        const existing = ctx.isNew ? undefined : (get.get(record.id) as [string, string] | undefined);
        if (!existing) {
          insert.run(record.id, workspaceId, record.name, record.color);
          return 'inserted';
        }
        if (existing[0] === record.name && existing[1] === record.color) return 'unchanged';
        update.run(record.name, record.color, record.id);
        return 'updated';
      },
    };
  },
};
