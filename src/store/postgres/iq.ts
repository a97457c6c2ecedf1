import type { IqRecordType, IqStore } from '../interfaces/iq.js';
import { iqColumns, iqListParams, iqViewOfType, iqView, IQ_LIST, IQ_SQL, IQ_TABLE, type IqRow } from '../iq-rows.js';
import { recordListMethod } from './keyset.js';
import type { PostgresPool } from './pool.js';
import { inTransaction, row, run, value } from './query.js';
import { postgresSave } from './saved-rows.js';

/**
 * Taken by a save that makes a record its kind's default, until its transaction ends. SQLite has one
 * writer at a time; here two such saves could each clear the kind's other defaults before the
 * other's new one is committed, and the second would then break the unique index
 * (`iq_records_one_default`). So they take turns per workspace and kind (the key is listed in
 * migrations/README.md).
 */
const DEFAULT_OF_KIND_LOCK = 'SELECT pg_advisory_xact_lock(4242022, hashtext(CAST(? AS TEXT)))';

/** Brand-intelligence records of a workspace, in PostgreSQL: the same answers as `../sqlite/iq.ts`. */
export function createPostgresIqStore(pool: PostgresPool): IqStore {
  const records = postgresSave(pool, IQ_TABLE, iqColumns);

  return {
    get: async (workspaceId, id, type) => iqViewOfType(await row<IqRow>(pool, IQ_SQL.get, [id, workspaceId]), type),
    typeOf: (workspaceId, id) => value<IqRecordType>(pool, IQ_SQL.typeOf, [id, workspaceId]),
    list: recordListMethod(pool, IQ_LIST, iqListParams, iqView),
    /**
     * A record that becomes its kind's default takes the flag from the previous default in the
     * same transaction, so the kind never has two (the unique index refuses it) nor, if the write
     * fails, none.
     */
    save: (input) => inTransaction(pool, async (client) => {
      if (input.is_default) {
        await run(client, DEFAULT_OF_KIND_LOCK, [`${input.workspace_id}:${input.type}`]);
        await run(client, IQ_SQL.clearDefault, [input.workspace_id, input.type, input.id]);
      }
      return records.saveOn(client, input);
    }),
    stageOf: records.stateOf,
  };
}
