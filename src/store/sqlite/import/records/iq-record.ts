import { formatType, type RecordType } from '../record-type.js';
import type { ImportRecords } from '../../../../../generated/import-format.js';
import { createSyncIqStore } from '../../iq.js';
import { iqRecordPayload } from '../event-payloads.js';
import { lifetime, orNull, saveWithEvent } from '../record-fields.js';

/**
 * Brand-intelligence records of every kind; a stage change sends `iq.status_updated`. The schema
 * has checked `metadata` against its kind; what needs other records is checked here.
 */
export const iqRecord: RecordType<ImportRecords['iq_record']> = {
  ...formatType('iq_record'),
  open(db, { workspaceId }) {
    const iq = createSyncIqStore(db);
    return {
      apply(record, ctx) {
        const productId = orNull(record.product_id);
        if (productId !== null) {
          if (record.kind === 'product') ctx.fail('product_id', 'must be null on a product');
          const kind = iq.typeOf(workspaceId, productId);
          // The product may come later in the file; the framework fails the import if it never does.
          if (kind === undefined && !ctx.finalPass) return 'deferred';
          if (kind !== undefined && kind !== 'product') ctx.fail('product_id', `refers to a ${kind} record, not a product`);
        }
        // The schema has given a content type its metadata shape; `in` tells the compiler which it is.
        if (record.kind === 'content_type' && 'word_count_min' in record.metadata) {
          const { word_count_min: min, word_count_max: max } = record.metadata;
          if (min !== null && max !== null && max < min) ctx.fail('metadata.word_count_max', `may not be below word_count_min (${min})`);
        }
        const input = {
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
          is_default: record.is_default ?? false,
          stage: record.stage,
          ...lifetime(ctx, record),
        };
        return saveWithEvent(ctx, {
          id: record.id,
          next: record.stage,
          stateOf: () => iq.stageOf(record.id),
          save: () => iq.save(input),
          event: 'iq.status_updated',
          payload: () => iqRecordPayload(iq, workspaceId, record.id),
        });
      },
    };
  },
};
