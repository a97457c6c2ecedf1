import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { lifetime, orNull } from '../record-fields.js';
import { saveRow } from '../saved-rows.js';
import { CONTENT_TABLES, contentColumns } from '../../store/content-rows.js';

/** Content ideas, usually of a research batch. No status, so no event of their own. */
export const idea: RecordType<ImportRecords['idea']> = {
  ...formatType('idea'),
  open(io, { workspaceId }) {
    const rows = io.saved(CONTENT_TABLES.idea);
    return {
      apply(record, ctx) {
        const row = contentColumns.idea({
          id: record.id,
          workspace_id: workspaceId,
          title: record.title,
          topic_id: orNull(record.topic_id),
          keywords: record.keywords ?? [],
          buyer_stage: orNull(record.buyer_stage),
          persona_name: orNull(record.persona_name),
          research_batch_id: orNull(record.research_batch_id),
          ...lifetime(ctx, record),
        });
        return saveRow(rows, CONTENT_TABLES.idea, row).outcome;
      },
    };
  },
};
