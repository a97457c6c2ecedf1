import type { RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { createContentMapStore } from '../../store/content-map.js';
import { lifetime, orNull, utcOrNull } from '../record-fields.js';

/** Pages of the content map, each found through a site and optionally assigned to a topic. No event. */
export const page: RecordType<ImportRecords['page']> = {
  type: 'page',
  schema: 'records/page.schema.json',
  table: 'pages',
  references: [
    { field: 'site_id', type: 'site' },
    { field: 'topic_id', type: 'topic' },
  ],
  open(db, { workspaceId }) {
    const contentMap = createContentMapStore(db);
    return {
      apply(record, ctx) {
        return contentMap.savePage({
          id: record.id,
          workspace_id: workspaceId,
          url: record.url,
          title: orNull(record.title),
          site_id: record.site_id,
          topic_id: orNull(record.topic_id),
          status: record.status,
          last_fetched_at: utcOrNull(ctx, 'last_fetched_at', record.last_fetched_at),
          ...lifetime(ctx, record),
        }).outcome;
      },
    };
  },
};
