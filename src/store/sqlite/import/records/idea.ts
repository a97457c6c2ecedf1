import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../../../generated/import-format.js';
import { createSyncContentStore } from '../../content.js';
import { lifetime, orNull } from '../record-fields.js';

/** Content ideas, usually of a research batch. No status, so no event of their own. */
export const idea: RecordType<ImportRecords['idea']> = {
  ...formatType('idea'),
  open(db, { workspaceId }) {
    const content = createSyncContentStore(db);
    return {
      apply(record, ctx) {
        return content.saveIdea({
          id: record.id,
          workspace_id: workspaceId,
          title: record.title,
          topic_id: orNull(record.topic_id),
          keywords: record.keywords ?? [],
          buyer_stage: orNull(record.buyer_stage),
          persona_name: orNull(record.persona_name),
          research_batch_id: orNull(record.research_batch_id),
          ...lifetime(ctx, record),
        }).outcome;
      },
    };
  },
};
