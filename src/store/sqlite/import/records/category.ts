import { formatType, type RecordType } from '../record-type.js';
import { createCategoryStatements } from '../../visibility-import.js';

export type CategoryRecord = { type: 'category'; id: string; name: string; color: string };

/** Prompt categories. */
export const category: RecordType<CategoryRecord> = {
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
