import { DatabaseBusyError } from '../errors.js';
import { isDatabaseBusy } from './database.js';

/** The methods of a synchronous store as its async interface declares them. */
export type Promised<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : T[K];
};

/**
 * An error of a SQLite call as every store reports it: SQLite's busy codes (the lock stayed with
 * another connection longer than this one may wait) become the store's DatabaseBusyError.
 */
export function storeError(err: unknown): unknown {
  return isDatabaseBusy(err) && !(err instanceof DatabaseBusyError) ? new DatabaseBusyError() : err;
}

/** The result of a synchronous SQLite call, or its error (as `storeError` reports it), in a promise. */
export function resolved<T>(call: () => T): Promise<T> {
  try {
    return Promise.resolve(call());
  } catch (err) {
    return Promise.reject(storeError(err));
  }
}

/**
 * A store area over better-sqlite3 behind its async interface: each method runs its statements
 * at once (synchronously, as better-sqlite3 does) and hands back the result, or the error, in a
 * promise. The synchronous area stays available to what runs inside one SQLite transaction (the
 * import, the multi-statement writes of the areas).
 */
export function promised<T extends object>(sync: T): Promised<T> {
  return withEachMethod(sync, (method) => (...args) => resolved(() => method(...args))) as Promised<T>;
}

type Method = (...args: unknown[]) => unknown;

/** A copy of `area` with each method replaced by what `wrap` makes of it; other members kept. */
export function withEachMethod(area: object, wrap: (method: Method) => Method): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(area)) copy[name] = typeof member === 'function' ? wrap(member as Method) : member;
  return copy;
}
