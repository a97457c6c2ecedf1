import type { IqRecord, IqRecordInput, IqRecordType, IqStage, IqStore } from '../interfaces/iq.js';
import type { RecordPage } from '../interfaces/list-pages.js';
import type { SaveResult } from '../interfaces/saved-rows.js';
import { iqColumns, iqListParams, iqView, iqViewOfType, IQ_LIST, IQ_SQL, IQ_TABLE, type IqRow } from '../iq-rows.js';
import type { Db } from './database.js';
import { prepareRecordList } from './keyset.js';
import { prepareSave } from './saved-rows.js';
import { promised } from './promised.js';

/** Brand-intelligence records of a workspace, synchronously: for the import's transaction. */
export function createSyncIqStore(db: Db) {
  const statements = {
    get: db.prepare(IQ_SQL.get),
    typeOf: db.prepare(IQ_SQL.typeOf).pluck(),
    clearDefault: db.prepare(IQ_SQL.clearDefault),
  };
  const write = prepareSave(db, IQ_TABLE);
  const list = prepareRecordList(db, IQ_LIST);

  return {
    /**
     * The record if it belongs to the workspace and, when `type` is given, is of that kind: a
     * persona's id read as a product is as absent as an unknown id.
     */
    get(workspaceId: string, id: string, type?: IqRecordType): IqRecord | undefined {
      return iqViewOfType(statements.get.get(id, workspaceId) as IqRow | undefined, type);
    },
    typeOf(workspaceId: string, id: string): IqRecordType | undefined {
      return statements.typeOf.get(id, workspaceId) as IqRecordType | undefined;
    },
    /** One page of records of one kind in creation or update order. */
    list(filters: { workspaceId: string; type: IqRecordType; stage?: IqStage | undefined }, page: RecordPage): IqRecord[] {
      return list<IqRow>(iqListParams(filters), page).map(iqView);
    },
    /**
     * Writes a record (insert or full replace). A record that becomes its kind's default takes the
     * flag from the previous default, so each kind keeps at most one.
     */
    save(input: IqRecordInput): SaveResult<IqStage> {
      if (input.is_default) statements.clearDefault.run(input.workspace_id, input.type, input.id);
      return write.save(iqColumns(input));
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
