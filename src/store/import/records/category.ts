import { formatType, type RecordType } from '../record-type.js';
import { saveRow } from '../saved-rows.js';
import { CATEGORIES } from '../tables/visibility.js';

export type CategoryRecord = { type: 'category'; id: string; name: string; color: string };

/** Prompt categories. */
export const category: RecordType<CategoryRecord> = {
  ...formatType('category'),
  open(io, { workspaceId }) {
    const rows = io.saved(CATEGORIES);
    return {
      apply(record, ctx) {
        return saveRow(rows, CATEGORIES, { id: record.id, workspace_id: workspaceId, name: record.name, color: record.color }, ctx.isNew).outcome;
      },
    };
  },
};
