import { AsyncLocalStorage } from 'node:async_hooks';
import { DatabaseBusyError } from '../errors.js';
import type { Db } from './database.js';
import { commitOrRollBack } from './async-transaction.js';
import { storeError, withEachMethod } from './promised.js';

/**
 * One SQLite transaction around asynchronous work (a request's handler and the answer it keeps),
 * on the connection every request of the process shares. While it is open, a call of the store
 * from anywhere else waits for it to end instead of running inside it: that call would otherwise
 * commit, or roll back, with work it knows nothing about.
 */
export interface UnitOfWork {
  /**
   * Runs `work` inside BEGIN IMMEDIATE … COMMIT (ROLLBACK when it throws), one unit at a time;
   * called from inside the open unit, it runs `work` as part of it.
   */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** `area` with each method waiting, outside the open unit, until the unit is over. */
  guard<A extends object>(area: A): A;
}

export function createUnitOfWork(db: Db): UnitOfWork {
  const scope = new AsyncLocalStorage<symbol>();
  let holder: symbol | undefined;
  let over: Promise<void> = Promise.resolve();

  /** Resolves once no unit is open but the caller's own. */
  async function turn(): Promise<void> {
    while (holder !== undefined && scope.getStore() !== holder) await over;
  }

  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (holder !== undefined && scope.getStore() === holder) return work();
      await turn();
      const me = Symbol('unit of work');
      let end!: () => void;
      holder = me;
      over = new Promise<void>((resolve) => { end = resolve; });
      try {
        // An import run by this process holds the connection's transaction: joining it would
        // commit or roll back with the import.
        if (db.inTransaction) throw new DatabaseBusyError('the connection is inside another transaction');
        try {
          db.exec('BEGIN IMMEDIATE');
        } catch (err) {
          throw storeError(err);
        }
        return await commitOrRollBack(db, () => scope.run(me, work));
      } finally {
        holder = undefined;
        end();
      }
    },

    guard<A extends object>(area: A): A {
      return withEachMethod(area, (method) => (...args) =>
        holder === undefined || scope.getStore() === holder ? method(...args) : turn().then(() => method(...args))) as A;
    },
  };
}
