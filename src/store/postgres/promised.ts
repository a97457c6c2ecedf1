/**
 * The methods of a synchronous SQLite store area, each returning a promise of what it returned:
 * the shape a PostgreSQL area implements. It stands in for the areas' async interfaces until they
 * exist, and is replaced by them.
 */
export type Promised<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : T[K];
};
