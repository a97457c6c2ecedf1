import type { Db } from '../../src/store/sqlite/database.js';
import type { PostgresPool } from '../../src/store/postgres/pool.js';
import { inTransaction, rows, run } from '../../src/store/postgres/query.js';

/** PostgreSQL takes at most 65,535 parameters in one statement. */
const MAX_PARAMETERS = 60_000;

/** The application tables of the SQLite file, each after the tables its foreign keys point to. */
function tablesInForeignKeyOrder(db: Db): string[] {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY name")
    .pluck()
    .all() as string[];
  const ordered: string[] = [];
  const placed = new Set<string>();
  const place = (table: string, path: readonly string[]): void => {
    if (placed.has(table)) return;
    if (path.includes(table)) throw new Error(`foreign keys form a cycle: ${[...path, table].join(' -> ')}`);
    const parents = db.prepare('SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)').pluck().all(table) as string[];
    for (const parent of parents) if (parent !== table) place(parent, [...path, table]);
    placed.add(table);
    ordered.push(table);
  };
  for (const table of tables) place(table, []);
  return ordered;
}

/**
 * Copies every row of every table of the SQLite file into the PostgreSQL database (already
 * migrated, its tables empty), parents before children, in one transaction; identity sequences are
 * moved past the copied numbers, so rows written afterwards get fresh ones. Values go as
 * better-sqlite3 reads them (numbers, text, NULL, buffers).
 */
export async function copySqliteToPostgres(db: Db, pool: PostgresPool): Promise<void> {
  await inTransaction(pool, async (client) => {
    for (const table of tablesInForeignKeyOrder(db)) {
      const all = db.prepare(`SELECT * FROM "${table}"`).all() as Array<Record<string, unknown>>;
      if (all.length === 0) continue;
      const columns = Object.keys(all[0]!);
      const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
      for (let start = 0; start < all.length; start += perStatement) {
        const chunk = all.slice(start, start + perStatement);
        const tuples = chunk.map(() => `(${columns.map(() => '?').join(', ')})`).join(', ');
        await run(client, `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples}`,
          chunk.flatMap((r) => columns.map((c) => r[c])));
      }
    }
    const identities = await rows<{ table_name: string; column_name: string }>(client,
      "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND is_identity = 'YES'");
    for (const { table_name: table, column_name: column } of identities) {
      await client.query(`SELECT setval(pg_get_serial_sequence('"${table}"', '${column}'), coalesce(max("${column}"), 0) + 1, false) FROM "${table}"`);
    }
  });
}


