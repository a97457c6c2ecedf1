import type { Store } from '../../src/store/index.js';
import type { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';

/**
 * Rows of one SELECT on either store, for checks of what a write left in the database that no read
 * of the service shows (the outbox, a webhook's failure count, "the import wrote nothing"). The
 * statement uses `?` placeholders and SQL both databases read alike; both schemas have the same
 * tables and columns (src/store/sqlite/migrations, src/store/postgres/migrations).
 */
export async function rowsOf<T = Record<string, unknown>>(store: Store, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  if (store.kind === 'sqlite') return (store as SqliteStore).db.prepare(sql).all(...params) as T[];
  let n = 0;
  const numbered = sql.replace(/\?/g, () => `$${++n}`);
  return (await (store as PostgresStore).pool.query(numbered, [...params])).rows as T[];
}

/**
 * Every row of every table, as sorted JSON lines per table: two equal results from the same store
 * mean it holds exactly the same data.
 */
export async function storeContents(store: Store): Promise<Record<string, string[]>> {
  const tables = store.kind === 'sqlite'
    ? await rowsOf<{ name: string }>(store, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    : await rowsOf<{ name: string }>(store, "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name");
  const out: Record<string, string[]> = {};
  for (const { name } of tables) {
    out[name] = (await rowsOf<object>(store, `SELECT * FROM "${name}"`)).map((row) => JSON.stringify(row)).sort();
  }
  return out;
}

/** The first column of each row of `sql` on either store (`rowsOf`). */
export async function valuesOf<T = unknown>(store: Store, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  return (await rowsOf<Record<string, T>>(store, sql, params)).map((row) => Object.values(row)[0]!);
}

/** The first column of the first row of `sql` on either store, undefined when there is none. */
export async function valueOf<T = unknown>(store: Store, sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
  return (await valuesOf<T>(store, sql, params))[0];
}
