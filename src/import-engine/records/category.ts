import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { saveRow } from '../saved-rows.js';
import { CATEGORIES } from '../tables/visibility.js';

/** Prompt categories. */
export const category: RecordType<ImportRecords['category']> = {
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
