import type { EventType } from '../../../../generated/events.js';
import type { DeferredQueue, ImportIo, RemovalIo } from '../../../import-engine/import-io.js';
import type { Db } from '../database.js';
import { enqueueEvent } from '../outbox.js';
import { eventPayload, type PayloadStores } from './event-payloads.js';
import { createRecordIdStatements, openDeferredQueue, type DeferredQueueStatements } from './import-ledger.js';
import { createSqliteRecordIo } from './record-io.js';

/** The statements a deletion needs, over the tables and columns the record types declare (never input), prepared once per import. */
function removalIo(db: Db): RemovalIo {
  const statements = new Map<string, ReturnType<Db['prepare']>>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  return {
    remove(table, id) {
      prepared(`DELETE FROM ${table} WHERE id = ?`).run(id);
    },
    // Smallest id first, so every database deletes a cascade in the same order and names the same referrer.
    referrers(table, column, id, limit) {
      return prepared(`SELECT id FROM ${table} WHERE ${column} = ? ORDER BY id LIMIT ?`).pluck().all(id, limit) as string[];
    },
  };
}

/** The I/O of one import on SQLite, inside its transaction: every call runs its statement at once. */
export function createSqliteImportIo(db: Db, workspaceId: string, payloads: PayloadStores): ImportIo & { deferred(): DeferredQueueStatements | undefined } {
  const ids = createRecordIdStatements(db);
  let deferred: DeferredQueueStatements | undefined;
  const queue = (): DeferredQueueStatements => (deferred ??= openDeferredQueue(db));
  const waiting: DeferredQueue = {
    add: (line, id, text) => {
      queue().insert.run(line, id, text);
    },
    addEvent: (line, id, event) => {
      queue().insertEvent.run(line, id, event);
    },
    has: (id) => deferred !== undefined && deferred.has.get(id) !== undefined,
  };
  return {
    records: createSqliteRecordIo(db, workspaceId),
    removal: removalIo(db),
    ledger: {
      claim: (id, workspace, type) => ids.claim.run(id, workspace, type).changes === 1,
      owner: (id) => ids.owner.get(id) as [string, string] | undefined,
      release: (id) => {
        ids.release.run(id);
      },
    },
    queue: waiting,
    outbox: {
      write: (type: EventType, id: string, at: Date) => {
        enqueueEvent(db, { workspaceId, type, data: eventPayload(payloads, type, workspaceId, id), at });
      },
    },
    deferred: () => deferred,
  };
}
