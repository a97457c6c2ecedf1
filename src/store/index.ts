// The store: one interface per area (`interfaces/`), implemented for SQLite (`sqlite/`). Code
// outside src/store/ takes a `Store` and awaits its methods; it never sees a database handle.
export type { Store } from './interfaces/store.js';
export { openSqliteStore, type SqliteStoreOptions } from './sqlite/sqlite-store.js';
