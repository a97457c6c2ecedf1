// Set-based statements over the tables an import writes: every row of a batch in one statement, its
// values bound as one array per column and spread back into rows by unnest().
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyTextChunks, type CopyColumn } from '../copy-text-format.js';

/** Column name → its type as PostgreSQL spells it (`text`, `bigint`, `integer`), per table. */
export type ColumnTypes = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** The column types of every table of the schema, read once per import from the catalog. */
export async function readColumnTypes(client: pg.PoolClient): Promise<ColumnTypes> {
  const result = await client.query<{ table: string; column: string; type: string }>(
    `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type
     FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`,
  );
  const types = new Map<string, Map<string, string>>();
  for (const { table, column, type } of result.rows as Array<{ table: string; column: string; type: string }>) {
    let columns = types.get(table);
    if (!columns) types.set(table, (columns = new Map<string, string>()));
    columns.set(column, type);
  }
  return types;
}

/** `unnest($1::text[], $2::bigint[], …) AS u(a, b, …)` over `columns`, its arrays numbered from `first`. */
export function unnestOf(types: ColumnTypes, table: string, columns: readonly string[], first = 1): string {
  const of = types.get(table);
  if (!of) throw new Error(`no table ${table} in the schema`);
  const arrays = columns.map((column, i) => {
    const type = of.get(column);
    if (!type) throw new Error(`no column ${table}.${column} in the schema`);
    return `$${first + i}::${type}[]`;
  });
  return `unnest(${arrays.join(', ')}) AS u(${columns.join(', ')})`;
}

/** The values of `rows` as one array per column, in `columns`' order. */
function columnArrays(rows: ReadonlyArray<Readonly<Record<string, unknown>>>, columns: readonly string[]): unknown[][] {
  return columns.map((column) => rows.map((row) => row[column] ?? null));
}

/** The same for rows held as tuples in `columns`' order. */
function tupleArrays(rows: ReadonlyArray<readonly unknown[]>, width: number): unknown[][] {
  return Array.from({ length: width }, (_, i) => rows.map((row) => row[i] ?? null));
}

/**
 * Inserts `rows` (objects or tuples over `columns`), or replaces every column but `key` of the stored
 * rows with the same key.
 */
export async function upsertRows(
  client: pg.PoolClient,
  types: ColumnTypes,
  table: string,
  columns: readonly string[],
  rows: ReadonlyArray<Readonly<Record<string, unknown>>> | ReadonlyArray<readonly unknown[]>,
  key = 'id',
): Promise<void> {
  if (rows.length === 0) return;
  const updates = columns.filter((c) => c !== key).map((c) => `${c} = excluded.${c}`).join(', ');
  const values = Array.isArray(rows[0]) ? tupleArrays(rows as ReadonlyArray<readonly unknown[]>, columns.length) : columnArrays(rows as ReadonlyArray<Readonly<Record<string, unknown>>>, columns);
  await client.query(
    `INSERT INTO ${table} (${columns.join(', ')}) SELECT * FROM ${unnestOf(types, table, columns)}
     ON CONFLICT (${key}) DO UPDATE SET ${updates}`,
    values,
  );
}

/** Deletes the rows of `table` with these ids. */
export async function deleteRows(client: pg.PoolClient, table: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await client.query(`DELETE FROM ${table} WHERE id = ANY($1::text[])`, [ids]);
}

/**
 * Inserts `rows` (tuples over `columns`) that the import knows to be new with `COPY … FROM STDIN`:
 * no conflict to look for and no arrays to spread, so the server does the least work a row can
 * cost. A row that exists after all fails the statement, and with it the import.
 */
export async function copyRows(client: pg.PoolClient, table: string, columns: readonly string[], rows: ReadonlyArray<readonly unknown[]>): Promise<void> {
  if (rows.length === 0) return;
  const fields: CopyColumn[] = columns.map((name) => ({ name, bytea: false }));
  await pipeline(Readable.from(copyTextChunks(rows, fields, table)), client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`)));
}
