import type { Db } from '../../src/store/sqlite/database.js';
import type { PostgresPool } from '../../src/store/postgres/pool.js';
import { inTransaction, rows as pgRows } from '../../src/store/postgres/query.js';

/** Tables each database keeps for itself: the record of applied migrations, SQLite's AUTOINCREMENT counters. */
const OWN_TABLES = new Set(['schema_migrations', 'sqlite_sequence']);

/** Rows per INSERT, kept under PostgreSQL's 65,535 parameters of one statement. */
const MAX_PARAMETERS = 30_000;

/** The SQLite file's tables, each after every table it references (a self-reference does not count). */
function tablesInForeignKeyOrder(db: Db): string[] {
  const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[])
    .filter((name) => !OWN_TABLES.has(name) && !name.startsWith('sqlite_'));
  const references = new Map(names.map((name) => [
    name,
    new Set((db.prepare('SELECT "table" FROM pragma_foreign_key_list(?)').pluck().all(name) as string[]).filter((t) => t !== name)),
  ]));
  const ordered: string[] = [];
  while (ordered.length < names.length) {
    const ready = names.filter((name) => !ordered.includes(name) && [...references.get(name)!].every((t) => ordered.includes(t)));
    if (ready.length === 0) throw new Error(`foreign keys form a cycle among ${names.filter((n) => !ordered.includes(n)).join(', ')}`);
    ordered.push(...ready);
  }
  return ordered;
}

/**
 * Copies every row of the SQLite file into a PostgreSQL database migrated to the same schema (and
 * holding none of those rows yet), table by table in foreign-key order, in one transaction, values
 * as better-sqlite3 reads them. Identity sequences (SQLite's INTEGER PRIMARY KEY) then continue after
 * the copied numbers, as SQLite's would. For tests that compare the two stores over the same data.
 */
export async function copySqliteToPostgres(db: Db, pool: PostgresPool): Promise<void> {
  const tables = tablesInForeignKeyOrder(db);
  await inTransaction(pool, async (client) => {
    for (const table of tables) {
      const columns = (db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(table) as string[]);
      const quoted = columns.map((c) => `"${c}"`).join(', ');
      const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
      const all = db.prepare(`SELECT ${quoted} FROM "${table}"`).raw().all() as unknown[][];
      for (let start = 0; start < all.length; start += perStatement) {
        const batch = all.slice(start, start + perStatement);
        const values = batch
          .map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`)
          .join(', ');
        await client.query(`INSERT INTO "${table}" (${quoted}) VALUES ${values}`, batch.flat());
      }
    }
    const identities = await pgRows<{ table_name: string; column_name: string }>(
      client,
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND is_identity = 'YES'",
    );
    for (const { table_name: table, column_name: column } of identities) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence('"${table}"', '${column}'), max("${column}")) FROM "${table}" HAVING count(*) > 0`,
      );
    }
  });
}
