import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../../../generated/import-format.js';
import { createSyncContentMapStore } from '../../content-map.js';
import { topicPayload } from '../event-payloads.js';
import { lifetime, saveWithEvent } from '../record-fields.js';

/** Topic clusters of the content map; a stage change sends `topic.status_updated`. */
export const topic: RecordType<ImportRecords['topic']> = {
  ...formatType('topic'),
  open(db, { workspaceId }) {
    const contentMap = createSyncContentMapStore(db);
    return {
      apply(record, ctx) {
        const seen = new Set<string>();
        record.keywords.forEach((k, i) => {
          if (seen.has(k.keyword)) ctx.fail(`keywords[${i}].keyword`, `${JSON.stringify(k.keyword)} appears twice`);
          seen.add(k.keyword);
        });
        const input = {
          id: record.id,
          workspace_id: workspaceId,
          name: record.name,
          stage: record.stage,
          keywords: record.keywords,
          msv_badge: record.msv_badge,
          kd_badge: record.kd_badge,
          coverage: record.coverage,
          ...lifetime(ctx, record),
        };
        return saveWithEvent(ctx, {
          id: record.id,
          next: record.stage,
          stateOf: () => contentMap.topicStage(record.id),
          save: () => contentMap.saveTopic(input),
          event: 'topic.status_updated',
          payload: () => topicPayload(contentMap, workspaceId, record.id),
        });
      },
    };
  },
};
