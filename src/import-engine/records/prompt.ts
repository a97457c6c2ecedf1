import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { lifetime } from '../record-fields.js';
import { saveRow } from '../saved-rows.js';
import { PROMPTS } from '../tables/visibility.js';

/** The prompts a workspace tracks. `last_collected_ms` belongs to the snapshot writer. */
export const prompt: RecordType<ImportRecords['prompt']> = {
  ...formatType('prompt'),
  open(io, { workspaceId }) {
    return {
      apply(record, ctx) {
        // Stored in UTC with milliseconds, so timestamps sort as text.
        const { created_at, updated_at } = lifetime(ctx, record);
        const row = { id: record.id, workspace_id: workspaceId, text: record.text, category_id: record.category_id, status: record.status, created_at, updated_at };
        return saveRow(io.prompts, PROMPTS, row, ctx.isNew).outcome;
      },
    };
  },
};
