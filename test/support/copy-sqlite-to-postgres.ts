import type { Db } from '../../src/store/sqlite/database.js';
import type { PostgresPool } from '../../src/store/postgres/pool.js';
import { inTransaction, rows } from '../../src/store/postgres/query.js';

/** PostgreSQL takes at most 65,535 parameters in one statement; a batch stays well below. */
const MAX_PARAMETERS = 30_000;

/**
 * The tables of a SQLite file in an order that inserts every row after the rows it refers to
 * (parents first), schema_migrations left out: both databases record their own.
 */
function tablesInForeignKeyOrder(db: Db): string[] {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name")
    .pluck()
    .all() as string[];
  const parents = new Map(
    tables.map((t) => [t, (db.prepare(`SELECT "table" FROM pragma_foreign_key_list(?)`).pluck().all(t) as string[]).filter((p) => p !== t)]),
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  const place = (table: string, path: readonly string[]): void => {
    if (placed.has(table)) return;
    if (path.includes(table)) throw new Error(`foreign keys form a cycle: ${[...path, table].join(' → ')}`);
    for (const parent of parents.get(table) ?? []) place(parent, [...path, table]);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) place(table, []);
  return ordered;
}

/**
 * Copies every row of every table of a SQLite database into a migrated, empty PostgreSQL database,
 * in one transaction, parents before children, so both stores hold the same data (for tests that
 * compare what the two implementations read, and for the PostgreSQL benchmarks). Identity columns
 * are inserted as they are, and their sequences moved past the copied values, as SQLite would
 * number the next row.
 */
export async function copySqliteToPostgres(db: Db, pool: PostgresPool): Promise<void> {
  await inTransaction(pool, async (client) => {
    for (const table of tablesInForeignKeyOrder(db)) {
      const columns = (db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(table) as string[]).map((c) => `"${c}"`);
      const batch = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
      const insert = async (chunk: unknown[][]): Promise<void> => {
        const values = chunk.map((_, r) => `(${columns.map((_c, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
        await client.query(`INSERT INTO "${table}" (${columns.join(', ')}) VALUES ${values.join(', ')}`, chunk.flat());
      };
      // Read in batches, so a benchmark's million rows never sit in memory at once; nothing else
      // uses the SQLite connection while its iterator is open.
      let chunk: unknown[][] = [];
      for (const values of db.prepare(`SELECT ${columns.join(', ')} FROM "${table}"`).raw().iterate() as IterableIterator<unknown[]>) {
        chunk.push(values);
        if (chunk.length === batch) {
          await insert(chunk);
          chunk = [];
        }
      }
      if (chunk.length > 0) await insert(chunk);
    }
    const identities = await rows<{ table_name: string; column_name: string }>(
      client,
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND is_identity = 'YES'",
    );
    for (const { table_name, column_name } of identities) {
      await client.query(
        `SELECT setval(pg_get_serial_sequence('"${table_name}"', '${column_name}'), max("${column_name}")) FROM "${table_name}" HAVING count(*) > 0`,
      );
    }
  });
}
