import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../../../generated/import-format.js';
import { createPromptStatements } from '../../visibility-import.js';
import { lifetime } from '../record-fields.js';

/** The prompts a workspace tracks. `last_collected_ms` belongs to the snapshot writer. */
export const prompt: RecordType<ImportRecords['prompt']> = {
  ...formatType('prompt'),
  open(db, { workspaceId }) {
    const { get, insert, update } = createPromptStatements(db);
    return {
      apply(record, ctx) {
        // Stored in UTC with milliseconds, so timestamps sort as text.
        const { created_at: createdAt, updated_at: updatedAt } = lifetime(ctx, record);
        const existing = ctx.isNew ? undefined : (get.get(record.id) as [string, string | null, string, string, string] | undefined);
        if (!existing) {
          insert.run(record.id, workspaceId, record.text, record.category_id, record.status, createdAt, updatedAt, record.id);
          return 'inserted';
        }
        if (
          existing[0] === record.text && existing[1] === record.category_id && existing[2] === record.status
          && existing[3] === createdAt && existing[4] === updatedAt
        ) {
          return 'unchanged';
        }
        update.run(record.text, record.category_id, record.status, createdAt, updatedAt, record.id);
        return 'updated';
      },
    };
  },
};
