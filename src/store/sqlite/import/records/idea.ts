import { formatType, type RecordType } from '../record-type.js';
import type { BuyerStage } from '../../../interfaces/content.js';
import { createSyncContentStore } from '../../content.js';
import { lifetime, orNull } from '../record-fields.js';

export type IdeaRecord = {
  type: 'idea';
  id: string;
  title: string;
  topic_id?: string | null;
  keywords?: string[];
  buyer_stage?: BuyerStage | null;
  persona_name?: string | null;
  research_batch_id?: string | null;
  created_at: string;
  updated_at?: string;
};

/** Content ideas, usually of a research batch. No status, so no event of their own. */
export const idea: RecordType<IdeaRecord> = {
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
