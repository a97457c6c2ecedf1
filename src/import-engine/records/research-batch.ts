import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { lifetime, orNull, saveWithEvent, utc } from '../record-fields.js';
import { saveRow, stateOf } from '../saved-rows.js';
import { CONTENT_TABLES, contentColumns } from '../../store/content-rows.js';

/**
 * Research batches. Reaching `COMPLETED` or `FAILED` (from another status, or on arrival) sends
 * `research_batch.status_updated` listing the batch's ideas; `QUEUED` and `PROCESSING` send nothing.
 */
export const researchBatch: RecordType<ImportRecords['research_batch']> = {
  ...formatType('research_batch'),
  open(io, { workspaceId }) {
    const rows = io.saved(CONTENT_TABLES.researchBatch);
    return {
      apply(record, ctx) {
        const row = contentColumns.researchBatch({
          id: record.id,
          workspace_id: workspaceId,
          name: record.name,
          status: record.status,
          topic_id: record.topic_id,
          buyer_stage: orNull(record.buyer_stage),
          persona_name: orNull(record.persona_name),
          source: record.source,
          agent_log: (record.agent_log ?? []).map((entry, i) => ({ at: utc(ctx, `agent_log[${i}].at`, entry.at), message: entry.message })),
          research_log: orNull(record.research_log),
          ...lifetime(ctx, record),
        });
        return saveWithEvent(ctx, {
          id: record.id,
          next: record.status,
          stateOf: () => stateOf(rows, CONTENT_TABLES.researchBatch, record.id),
          save: () => saveRow(rows, CONTENT_TABLES.researchBatch, row),
          event: 'research_batch.status_updated',
          announces: (status) => status === 'COMPLETED' || status === 'FAILED',
        });
      },
    };
  },
};
