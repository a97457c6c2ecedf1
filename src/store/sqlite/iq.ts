import type { IqMetadata, IqRecord, IqRecordInput, IqRecordType, IqStage, IqStore } from '../interfaces/iq.js';
import type { RecordPage } from '../interfaces/list-pages.js';
import type { SaveResult } from '../interfaces/saved-rows.js';
import type { Db } from './database.js';
import { prepareRecordList } from './keyset.js';
import { fromJson, fromNullableJson, prepareSave } from './saved-rows.js';
import { IQ_RECORDS, iqRow } from '../import/tables/iq.js';
import { promised } from './promised.js';

interface IqRow {
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

function iqView(row: IqRow): IqRecord {
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

/** Brand-intelligence records of a workspace, synchronously: for the import's transaction. */
export function createSyncIqStore(db: Db) {
  const statements = {
    get: db.prepare(`SELECT ${COLUMNS} FROM iq_records WHERE id = ? AND workspace_id = ?`),
    typeOf: db.prepare('SELECT type FROM iq_records WHERE id = ? AND workspace_id = ?').pluck(),
    clearDefault: db.prepare('UPDATE iq_records SET is_default = 0 WHERE workspace_id = ? AND type = ? AND is_default = 1 AND id <> ?'),
  };
  const write = prepareSave(db, IQ_RECORDS);
  const list = prepareRecordList(db, {
    select: `SELECT ${COLUMNS} FROM iq_records`,
    where: 'workspace_id = @workspace_id AND type = @type AND (@stage IS NULL OR stage = @stage)',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
    id: 'id',
  });

  return {
    /**
     * The record if it belongs to the workspace and, when `type` is given, is of that kind: a
     * persona's id read as a product is as absent as an unknown id.
     */
    get(workspaceId: string, id: string, type?: IqRecordType): IqRecord | undefined {
      const row = statements.get.get(id, workspaceId) as IqRow | undefined;
      if (!row || (type !== undefined && row.type !== type)) return undefined;
      return iqView(row);
    },
    typeOf(workspaceId: string, id: string): IqRecordType | undefined {
      return statements.typeOf.get(id, workspaceId) as IqRecordType | undefined;
    },
    /** One page of records of one kind in creation or update order. */
    list(filters: { workspaceId: string; type: IqRecordType; stage?: IqStage | undefined }, page: RecordPage): IqRecord[] {
      return list<IqRow>({ workspace_id: filters.workspaceId, type: filters.type, stage: filters.stage ?? null }, page).map(iqView);
    },
    /**
     * Writes a record (insert or full replace). A record that becomes its kind's default takes the
     * flag from the previous default, so each kind keeps at most one.
     */
    save(input: IqRecordInput): SaveResult<IqStage> {
      if (input.is_default) statements.clearDefault.run(input.workspace_id, input.type, input.id);
      return write.save(iqRow(input));
    },
    stageOf(id: string): IqStage | undefined {
      return write.stateOf(id);
    },
  };
}

export type SyncIqStore = ReturnType<typeof createSyncIqStore>;

/** Brand-intelligence records of a workspace (products, personas, brand voice, content types, visual guidelines). */
export function createIqStore(db: Db): IqStore {
  return promised(createSyncIqStore(db));
}
