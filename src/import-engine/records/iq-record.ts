import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../generated/import-format.js';
import { lifetime, orNull, saveWithEvent } from '../record-fields.js';
import { saveRow, stateOf } from '../saved-rows.js';
import { IQ_TABLE, iqColumns } from '../../store/iq-rows.js';

/**
 * Brand-intelligence records of every kind; a stage change sends `iq.status_updated`. The schema
 * has checked `metadata` against its kind; what needs other records is checked here. A record that
 * becomes its kind's default takes the flag from the previous default, so each kind keeps at most one.
 */
export const iqRecord: RecordType<ImportRecords['iq_record']> = {
  ...formatType('iq_record'),
  open(io, { workspaceId }) {
    const rows = io.iqRecords;
    /** The kind of the workspace's record `id`, if it has one. */
    const kindOf = (id: string): string | undefined => {
      const stored = rows.stored(id);
      return stored !== undefined && stored.workspace_id === workspaceId ? (stored.type as string) : undefined;
    };
    return {
      apply(record, ctx) {
        const productId = orNull(record.product_id);
        if (productId !== null) {
          if (record.kind === 'product') ctx.fail('product_id', 'must be null on a product');
          const kind = kindOf(productId);
          // The product may come later in the file; the import fails if it never does.
          if (kind === undefined && !ctx.finalPass) return 'deferred';
          if (kind !== undefined && kind !== 'product') ctx.fail('product_id', `refers to a ${kind} record, not a product`);
        }
        // The schema has given a content type its metadata shape; `in` tells the compiler which it is.
        if (record.kind === 'content_type' && 'word_count_min' in record.metadata) {
          const { word_count_min: min, word_count_max: max } = record.metadata;
          if (min !== null && max !== null && max < min) ctx.fail('metadata.word_count_max', `may not be below word_count_min (${min})`);
        }
        const isDefault = record.is_default ?? false;
        const row = iqColumns({
          id: record.id,
          workspace_id: workspaceId,
          type: record.kind,
          title: record.title,
          description: orNull(record.description),
          content: orNull(record.content),
          metadata: record.metadata,
          product_id: productId,
          product_urls: orNull(record.product_urls),
          voice_sample_urls: orNull(record.voice_sample_urls),
          content_sample_urls: orNull(record.content_sample_urls),
          images_urls: orNull(record.images_urls),
          is_default: isDefault,
          stage: record.stage,
          ...lifetime(ctx, record),
        });
        return saveWithEvent(ctx, {
          id: record.id,
          next: record.stage,
          stateOf: () => stateOf(rows, IQ_TABLE, record.id),
          save: () => {
            if (isDefault) rows.clearDefault(record.kind, record.id);
            return saveRow(rows, IQ_TABLE, row);
          },
          event: 'iq.status_updated',
        });
      },
    };
  },
};
