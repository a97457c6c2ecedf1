// The store: one interface per area (`interfaces/`), implemented for SQLite (`sqlite/`) and
// PostgreSQL (`postgres/`). Code outside src/store/ takes a `Store` and awaits its methods; it
// never sees a database handle.
import type { Store } from './interfaces/store.js';
import { openPostgresStore } from './postgres/postgres-store.js';
import type { PostgresPoolOptions } from './postgres/pool.js';
import { openSqliteStore, type SqliteStoreOptions } from './sqlite/sqlite-store.js';
import { parseStoreAddress } from './store-address.js';

export type { Store } from './interfaces/store.js';
export { openSqliteStore, type SqliteStoreOptions } from './sqlite/sqlite-store.js';
export { openPostgresStore, PostgresUnreachableError } from './postgres/postgres-store.js';
export { addressWithoutPassword,  StoreAddressError,  } from './store-address.js';

/**
 * Opens the store at `address` (`parseStoreAddress`): a `postgres://` URL opens a pool and
 * applies the migrations it lacks (PostgresUnreachableError when the server does not answer);
 * anything else is a SQLite file, created and migrated if needed. `pool` sizes PostgreSQL's
 * connections (`DATABASE_POOL_*`). `serving` applies to SQLite
 * (see `SqliteStoreOptions`): PostgreSQL locks rows, and its serving writes never wait on a file lock.
 */
export async function openStore(address: string, options: SqliteStoreOptions & { pool?: PostgresPoolOptions } = {}): Promise<Store> {
  const parsed = parseStoreAddress(address);
  return parsed.kind === 'postgres' ? openPostgresStore(parsed.url, options.pool) : openSqliteStore(parsed.file, options);
}
