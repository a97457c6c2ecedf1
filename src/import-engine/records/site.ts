import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { SITEMAP_PROCESSING_OPEN, sitemapProcessingState } from '../../store/content-map-values.js';
import { lifetime, saveWithEvent, utc } from '../record-fields.js';
import { saveRow, stateOf } from '../saved-rows.js';
import { CONTENT_MAP_TABLES, contentMapColumns } from '../../store/content-map-rows.js';

/**
 * Sites of the content map (the API's sitemap URLs). Their "status" is the processing outcome:
 * `sitemap_url.status_updated` is sent when processing completes (on arrival too), and when a
 * completed site's outcome changes (another count of failed pages). Progress while processing and
 * reopening send nothing.
 */
export const site: RecordType<ImportRecords['site']> = {
  ...formatType('site'),
  open(io, { workspaceId }) {
    const rows = io.saved(CONTENT_MAP_TABLES.sitemapUrl);
    return {
      apply(record, ctx) {
        const { total, ready, failed, completed } = record.processing;
        if (ready + failed > total) ctx.fail('processing', `ready (${ready}) + failed (${failed}) may not exceed total (${total})`);
        if (completed && ready + failed !== total) {
          ctx.fail('processing.completed', `may only be true when ready + failed = total (${ready} + ${failed} ≠ ${total})`);
        }
        const row = contentMapColumns.sitemapUrl({
          id: record.id,
          workspace_id: workspaceId,
          url: record.url,
          type: record.kind,
          url_count: record.url_count,
          last_fetched_at: utc(ctx, 'last_fetched_at', record.last_fetched_at),
          processing: record.processing,
          ...lifetime(ctx, record),
        });
        return saveWithEvent(ctx, {
          id: record.id,
          next: sitemapProcessingState(completed, failed),
          stateOf: () => stateOf(rows, CONTENT_MAP_TABLES.sitemapUrl, record.id),
          save: () => saveRow(rows, CONTENT_MAP_TABLES.sitemapUrl, row),
          event: 'sitemap_url.status_updated',
          announces: (state) => state !== SITEMAP_PROCESSING_OPEN,
        });
      },
    };
  },
};
