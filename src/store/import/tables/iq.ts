// The stored form of brand-intelligence records (migration 022): what the import and the iq store
// write, the same in every database.
import type { IqRecordInput, IqStage } from '../../interfaces/iq.js';
import { nullableJson, type SavedRow, type SavedTable } from '../saved-rows.js';

export const IQ_RECORDS: SavedTable<IqStage> = {
  table: 'iq_records',
  columns: [
    'id', 'workspace_id', 'type', 'title', 'description', 'content', 'metadata', 'product_id', 'product_urls', 'voice_sample_urls',
    'content_sample_urls', 'images_urls', 'is_default', 'stage', 'created_at', 'updated_at',
  ],
  state: (row) => row.stage as IqStage,
};

export function iqRow(input: IqRecordInput): SavedRow {
  return {
    ...input,
    metadata: JSON.stringify(input.metadata),
    product_urls: nullableJson(input.product_urls),
    voice_sample_urls: nullableJson(input.voice_sample_urls),
    content_sample_urls: nullableJson(input.content_sample_urls),
    images_urls: nullableJson(input.images_urls),
    is_default: input.is_default ? 1 : 0,
  };
}
