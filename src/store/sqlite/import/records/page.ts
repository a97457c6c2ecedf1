import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../../../generated/import-format.js';
import { createSyncContentMapStore } from '../../content-map.js';
import { lifetime, orNull, utcOrNull } from '../record-fields.js';

/** Pages of the content map, each found through a site and optionally assigned to a topic. No event. */
export const page: RecordType<ImportRecords['page']> = {
  ...formatType('page'),
  open(db, { workspaceId }) {
    const contentMap = createSyncContentMapStore(db);
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
