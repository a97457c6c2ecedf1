// The brand-intelligence table as both databases store it: the SQL every store runs, the columns
// an import writes, and the API's view of a stored row.
import type { IqMetadata, IqRecord, IqRecordInput, IqRecordType, IqStage, IqStore } from './interfaces/iq.js';
import { fromJson, fromNullableJson, toNullableJson } from './json-columns.js';
import { filterIfGiven, type RecordListSql } from './record-list-sql.js';
import { wholeRowTable } from './whole-row-saves.js';

export interface IqRow {
  id: string;
  type: IqRecordType;
  title: string;
  description: string | null;
  content: string | null;
  metadata: string;
  product_id: string | null;
  product_urls: string | null;
  voice_sample_urls: string | null;
  content_sample_urls: string | null;
  is_default: 0 | 1;
  stage: IqStage;
  images_urls: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = `id, type, title, description, content, metadata, product_id, product_urls, voice_sample_urls,
  content_sample_urls, is_default, stage, images_urls, created_at, updated_at`;

/** Reads by id (`?` parameters: the id, then the workspace), and taking the default flag from a kind's other records (`?`: workspace, type, id kept). */
export const IQ_SQL = {
  get: `SELECT ${COLUMNS} FROM iq_records WHERE id = ? AND workspace_id = ?`,
  typeOf: 'SELECT type FROM iq_records WHERE id = ? AND workspace_id = ?',
  clearDefault: 'UPDATE iq_records SET is_default = 0 WHERE workspace_id = ? AND type = ? AND is_default = 1 AND id <> ?',
} as const;

/** The list of one kind; the stage filter is a named parameter, NULL when absent (`./record-list-sql.ts`). */
export const IQ_LIST: RecordListSql = {
  select: `SELECT ${COLUMNS} FROM iq_records`,
  where: `workspace_id = @workspace_id AND type = @type AND ${filterIfGiven('stage')}`,
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  id: 'id',
};

export const IQ_TABLE = wholeRowTable<IqStage>('iq_records', [
  'id', 'workspace_id', 'type', 'title', 'description', 'content', 'metadata', 'product_id', 'product_urls', 'voice_sample_urls',
  'content_sample_urls', 'images_urls', 'is_default', 'stage', 'created_at', 'updated_at',
], (row) => row.stage as IqStage);

export function iqListParams(filters: Parameters<IqStore['list']>[0]): Record<string, unknown> {
  return { workspace_id: filters.workspaceId, type: filters.type, stage: filters.stage ?? null };
}

/** The stored columns of a record an import writes. */
export function iqColumns(input: IqRecordInput): Record<string, unknown> {
  return {
    ...input,
    metadata: JSON.stringify(input.metadata),
    product_urls: toNullableJson(input.product_urls),
    voice_sample_urls: toNullableJson(input.voice_sample_urls),
    content_sample_urls: toNullableJson(input.content_sample_urls),
    images_urls: toNullableJson(input.images_urls),
    is_default: input.is_default ? 1 : 0,
  };
}

export function iqView(row: IqRow): IqRecord {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    description: row.description,
    content: row.content,
    metadata: fromJson<IqMetadata>(row.metadata),
    productId: row.product_id,
    productUrls: fromNullableJson<string[]>(row.product_urls),
    voiceSampleUrls: fromNullableJson<string[]>(row.voice_sample_urls),
    contentSampleUrls: fromNullableJson<string[]>(row.content_sample_urls),
    isDefault: row.is_default === 1,
    stage: row.stage,
    imagesUrls: fromNullableJson<string[]>(row.images_urls),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The record read by id, if it is of `type` when one is asked for: a persona's id read as a product is as absent as an unknown id. */
export function iqViewOfType(row: IqRow | undefined, type: IqRecordType | undefined): IqRecord | undefined {
  if (!row || (type !== undefined && row.type !== type)) return undefined;
  return iqView(row);
}
