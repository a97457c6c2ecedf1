import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { lifetime, orNull, utcOrNull } from '../record-fields.js';
import { saveRow } from '../saved-rows.js';
import { CONTENT_MAP_TABLES, contentMapColumns } from '../../store/content-map-rows.js';

/** Pages of the content map, each found through a site and optionally assigned to a topic. No event. */
export const page: RecordType<ImportRecords['page']> = {
  ...formatType('page'),
  open(io, { workspaceId }) {
    const rows = io.saved(CONTENT_MAP_TABLES.page);
    return {
      apply(record, ctx) {
        const row = contentMapColumns.page({
          id: record.id,
          workspace_id: workspaceId,
          url: record.url,
          title: orNull(record.title),
          site_id: record.site_id,
          topic_id: orNull(record.topic_id),
          status: record.status,
          last_fetched_at: utcOrNull(ctx, 'last_fetched_at', record.last_fetched_at),
          ...lifetime(ctx, record),
        });
        return saveRow(rows, CONTENT_MAP_TABLES.page, row).outcome;
      },
    };
  },
};
