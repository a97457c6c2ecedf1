import type { RecordType } from '../record-type.js';
import { createPromptStatements } from '../../store/visibility-import.js';
import { parseTimestamp } from '../timestamp.js';

export type PromptRecord = {
  type: 'prompt';
  id: string;
  text: string;
  category_id: string | null;
  status: 'PENDING' | 'GENERATING' | 'ACTIVE';
  created_at: string;
};

/** The prompts a workspace tracks. `last_collected_ms` belongs to the snapshot writer. */
export const prompt: RecordType<PromptRecord> = {
  type: 'prompt',
  schema: 'records/prompt.schema.json',
  references: [{ field: 'category_id', type: 'category' }],
  open(db, { workspaceId }) {
    const { get, insert, update } = createPromptStatements(db);
    return {
      apply(record, ctx) {
        const ms = parseTimestamp(record.created_at);
        if (ms === undefined) return ctx.fail('created_at', `must be an RFC 3339 date-time with a time zone (got ${JSON.stringify(record.created_at)})`);
        // Stored in UTC with milliseconds, so timestamps sort as text.
        const createdAt = new Date(ms).toISOString();
        const existing = ctx.isNew ? undefined : (get.get(record.id) as [string, string | null, string, string] | undefined);
        if (!existing) {
          insert.run(record.id, workspaceId, record.text, record.category_id, record.status, createdAt, record.id);
          return 'inserted';
        }
        if (existing[0] === record.text && existing[1] === record.category_id && existing[2] === record.status && existing[3] === createdAt) {
          return 'unchanged';
        }
        update.run(record.text, record.category_id, record.status, createdAt, record.id);
        return 'updated';
      },
    };
  },
};
