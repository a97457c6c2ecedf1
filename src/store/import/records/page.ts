import { formatType, type RecordType } from '../record-type.js';
import type { PageStatus } from '../../interfaces/content-map.js';
import { lifetime, orNull, utcOrNull } from '../record-fields.js';
import { saveRow } from '../saved-rows.js';
import { PAGES, pageRow } from '../tables/content-map.js';

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
    const rows = io.saved(PAGES);
    return {
      apply(record, ctx) {
        const row = pageRow({
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
        return saveRow(rows, PAGES, row).outcome;
      },
    };
  },
};
