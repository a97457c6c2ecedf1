import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { lifetime, saveWithEvent } from '../record-fields.js';
import { saveRow, stateOf } from '../saved-rows.js';
import { CONTENT_MAP_TABLES, contentMapColumns } from '../../store/content-map-rows.js';

/** Topic clusters of the content map; a stage change sends `topic.status_updated`. */
export const topic: RecordType<ImportRecords['topic']> = {
  ...formatType('topic'),
  open(io, { workspaceId }) {
    const rows = io.saved(CONTENT_MAP_TABLES.topic);
    return {
      apply(record, ctx) {
        const seen = new Set<string>();
        record.keywords.forEach((k, i) => {
          if (seen.has(k.keyword)) ctx.fail(`keywords[${i}].keyword`, `${JSON.stringify(k.keyword)} appears twice`);
          seen.add(k.keyword);
        });
        const row = contentMapColumns.topic({
          id: record.id,
          workspace_id: workspaceId,
          name: record.name,
          stage: record.stage,
          keywords: record.keywords,
          msv_badge: record.msv_badge,
          kd_badge: record.kd_badge,
          coverage: record.coverage,
          ...lifetime(ctx, record),
        });
        return saveWithEvent(ctx, {
          id: record.id,
          next: record.stage,
          stateOf: () => stateOf(rows, CONTENT_MAP_TABLES.topic, record.id),
          save: () => saveRow(rows, CONTENT_MAP_TABLES.topic, row),
          event: 'topic.status_updated',
        });
      },
    };
  },
};
