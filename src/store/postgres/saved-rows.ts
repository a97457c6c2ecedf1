import type { SaveResult } from '../interfaces/saved-rows.js';
import { savePlan, storedState, wholeRowSaveSql, type WholeRowTable } from '../whole-row-saves.js';
import type { PostgresPool } from './pool.js';
import { inTransaction, row, run, type Queryable } from './query.js';

/**
 * The write side of a table whose rows are replaced whole (`../whole-row-saves.ts`), with SQLite's
 * statements: `save` writes a record (`columns` gives its stored columns), inserting the row,
 * replacing it when any column differs, or leaving it; `stateOf` reads the lifecycle state (status
 * or stage) of a stored row.
 */
export function postgresSave<State, Input>(pool: PostgresPool, spec: WholeRowTable<State>, columns: (input: Input) => Record<string, unknown>) {
  const sql = wholeRowSaveSql(spec);
  // SQLite has one writer at a time. Here the stored row stays locked until the transaction ends,
  // so two saves of one record take turns and each reports what it replaced; a record not stored
  // yet is inserted only if no other transaction inserted it meanwhile (that one is then waited
  // for, and saved over like any stored row).
  const locked = `${sql.stored} FOR UPDATE`;
  const insertNew = `${sql.insert} ON CONFLICT (id) DO NOTHING`;

  /** On a connection in a transaction: the caller's, which may write other rows in it. */
  async function saveOn(client: Queryable, input: Input): Promise<SaveResult<State>> {
    const params = columns(input);
    let stored = await row<Record<string, unknown>>(client, locked, [params.id]);
    if (stored === undefined) {
      if ((await run(client, insertNew, params)) === 1) return { outcome: 'inserted', previous: undefined };
      stored = await row<Record<string, unknown>>(client, locked, [params.id]);
    }
    const plan = savePlan(spec, stored, params);
    if (plan.write) await run(client, sql.upsert, params);
    return plan.result;
  }

  return {
    saveOn,
    /** In a transaction of its own. */
    save: (input: Input): Promise<SaveResult<State>> => inTransaction(pool, (client) => saveOn(client, input)),
    stateOf: async (id: string): Promise<State | undefined> => storedState(spec, await row<Record<string, unknown>>(pool, sql.stored, [id])),
  };
}
