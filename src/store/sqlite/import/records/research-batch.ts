import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../../../generated/import-format.js';
import { createSyncContentStore } from '../../content.js';
import { researchBatchPayload } from '../event-payloads.js';
import { lifetime, orNull, saveWithEvent, utc } from '../record-fields.js';

/**
 * Research batches. Reaching `COMPLETED` or `FAILED` (from another status, or on arrival) sends
 * `research_batch.status_updated` listing the batch's ideas; `QUEUED` and `PROCESSING` send nothing.
 */
export const researchBatch: RecordType<ImportRecords['research_batch']> = {
  ...formatType('research_batch'),
  open(db, { workspaceId }) {
    const content = createSyncContentStore(db);
    return {
      apply(record, ctx) {
        const input = {
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
        };
        return saveWithEvent(ctx, {
          id: record.id,
          next: record.status,
          stateOf: () => content.researchBatchStatus(record.id),
          save: () => content.saveResearchBatch(input),
          event: 'research_batch.status_updated',
          payload: () => researchBatchPayload(content, workspaceId, record.id),
          announces: (status) => status === 'COMPLETED' || status === 'FAILED',
        });
      },
    };
  },
};
