import { formatType, type RecordType } from '../record-type.js';
import type { PageStatus } from '../../interfaces/content-map.js';
import { lifetime, orNull, utcOrNull } from '../record-fields.js';
import { saveRow } from '../saved-rows.js';
import { CONTENT_MAP_TABLES, contentMapColumns } from '../../content-map-rows.js';

export type PageRecord = {
  type: 'page';
  id: string;
  url: string;
  title?: string | null;
  site_id: string;
  topic_id?: string | null;
  status: PageStatus;
  last_fetched_at?: string | null;
  created_at: string;
  updated_at?: string;
};

/** Pages of the content map, each found through a site and optionally assigned to a topic. No event. */
export const page: RecordType<PageRecord> = {
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
