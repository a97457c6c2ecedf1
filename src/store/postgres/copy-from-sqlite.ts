import { statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { openCopySource, type CopySource } from '../sqlite/copy-source.js';
import { applyPostgresMigrations } from './migrate.js';
import { createPostgresPool } from './pool.js';
import { inTransaction, rows, value } from './query.js';
import { copyTextChunks, type CopyColumn } from './copy-text-format.js';
import { MIGRATION_LEDGER, SERVICE_SETTINGS, quoteIdentifier, readSchemaCatalog, tablesInForeignKeyOrder, type CatalogTable } from './schema-catalog.js';

/** How many rows one table received. */
interface CopiedTable {
  table: string;
  rows: number;
}

/** What a copy wrote: every table in the order it was filled, and the rows of all of them. */
export interface StoreCopySummary {
  tables: CopiedTable[];
  total: number;
}

/**
 * A copy refused or failed. Either way the target holds no row of it: a refusal writes nothing, a
 * failure is rolled back. The message never holds the target's URL (it may carry a password).
 */
export class StoreCopyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreCopyError';
  }
}

const messageOf = (err: unknown): string => {
  if (!(err instanceof Error)) return String(err);
  // PostgreSQL's detail names the key or the value at fault (`Key (category_id)=(…) is not present …`).
  const detail = (err as { detail?: unknown }).detail;
  return typeof detail === 'string' && detail !== '' ? `${err.message} (${detail})` : err.message;
};

/** A table as both sides hold it: the columns SQLite reads and PostgreSQL receives, in one order. */
interface TablePlan {
  table: CatalogTable;
  columns: CopyColumn[];
}

/**
 * The copy, table by table, in foreign-key order. Refused, before any row is written, when a
 * table or column is on one side only: a row would lose a value, or the schemas come from
 * different versions of the service.
 */
function planCopy(source: CopySource, catalog: ReadonlyMap<string, CatalogTable>): TablePlan[] {
  const inSqlite = source.tables(MIGRATION_LEDGER);
  const onlySqlite = inSqlite.filter((t) => !catalog.has(t));
  const onlyPostgres = [...catalog.keys()].filter((t) => !inSqlite.includes(t));
  if (onlySqlite.length > 0 || onlyPostgres.length > 0) {
    throw new StoreCopyError('the two schemas differ, so nothing was copied: '
      + [onlySqlite.length > 0 ? `only in SQLite: ${onlySqlite.join(', ')}` : '', onlyPostgres.length > 0 ? `only in PostgreSQL: ${onlyPostgres.join(', ')}` : '']
        .filter((s) => s !== '').join('; '));
  }
  return tablesInForeignKeyOrder(catalog).map((table) => {
    const fromSqlite = source.columns(table.name);
    const names = table.columns.map((c) => c.name);
    const differ = [...fromSqlite.filter((c) => !names.includes(c)), ...names.filter((c) => !fromSqlite.includes(c))];
    if (differ.length > 0) {
      throw new StoreCopyError(`the two schemas differ, so nothing was copied: table ${table.name} has column ${differ.join(', ')} on one side only`);
    }
    return { table, columns: table.columns.map((c) => ({ name: c.name, bytea: c.dataType === 'bytea' })) };
  });
}

/**
 * The first table, in copy order, that holds a row: a copy goes into empty tables only. The
 * settings a service generated on its first start (it may have started on the target before the
 * copy) are not data: the source's replace them, so cursors it gave keep working.
 */
async function firstTableWithRows(client: pg.PoolClient, plan: readonly TablePlan[]): Promise<string | undefined> {
  for (const { table } of plan) {
    if (table.name === SERVICE_SETTINGS) continue;
    if (await value<boolean>(client, `SELECT EXISTS (SELECT 1 FROM ${quoteIdentifier(table.name)})`)) return table.name;
  }
  return undefined;
}

/**
 * The target's own triggers, switched off for the copy and back on before it commits (ALTER
 * TABLE is transactional: a rollback restores them too), so that none alters or adds to the rows
 * copied, which are already what they computed when SQLite wrote them. Each trigger gets back the
 * state it had. This needs the role that owns the tables, as the migrations do.
 */
async function setTriggers(client: pg.PoolClient, plan: readonly TablePlan[], on: boolean): Promise<void> {
  const enable = { O: 'ENABLE', A: 'ENABLE ALWAYS', R: 'ENABLE REPLICA', D: 'DISABLE' } as const;
  for (const { table } of plan) {
    for (const trigger of table.triggers.filter((t) => t.enabled !== 'D')) {
      const action = on ? enable[trigger.enabled] : 'DISABLE';
      await client.query(`ALTER TABLE ${quoteIdentifier(table.name)} ${action} TRIGGER ${quoteIdentifier(trigger.name)}`).catch((err: unknown) => {
        throw new StoreCopyError(`cannot switch the trigger ${trigger.name} of table ${table.name} off for the copy (the copying role must own the tables): ${messageOf(err)}`, { cause: err });
      });
    }
  }
}

/** Streams one table from SQLite into PostgreSQL with COPY: one chunk of rows in memory at a time. */
async function copyTable(source: CopySource, client: pg.PoolClient, { table, columns }: TablePlan): Promise<void> {
  const list = columns.map((c) => quoteIdentifier(c.name)).join(', ');
  const write = client.query(copyFrom(`COPY ${quoteIdentifier(table.name)} (${list}) FROM STDIN`));
  const read = source.rows(table.name, columns.map((c) => c.name));
  try {
    await pipeline(Readable.from(copyTextChunks(read, columns, table.name)), write);
  } catch (err) {
    throw new StoreCopyError(`copying table ${table.name} failed, so nothing was copied: ${messageOf(err)}`, { cause: err });
  }
}

/** Fails when any table holds another number of rows in PostgreSQL than in SQLite's snapshot. */
async function checkRowCounts(source: CopySource, client: pg.PoolClient, plan: readonly TablePlan[]): Promise<CopiedTable[]> {
  const copied: CopiedTable[] = [];
  const differences: string[] = [];
  for (const { table } of plan) {
    const read = source.count(table.name);
    const target = (await value<number>(client, `SELECT count(*) FROM ${quoteIdentifier(table.name)}`))!;
    if (read !== target) differences.push(`${table.name}: ${read} in SQLite, ${target} in PostgreSQL`);
    copied.push({ table: table.name, rows: target });
  }
  if (differences.length > 0) throw new StoreCopyError(`row counts differ after the copy, so nothing was copied: ${differences.join('; ')}`);
  return copied;
}

/**
 * Sets each sequence past the greatest number copied into its column, and past the greatest
 * number SQLite ever gave there (AUTOINCREMENT's `sqlite_sequence`, which outlives deleted rows),
 * so a number is never given twice. Last, just before the commit: a sequence does not roll back.
 */
async function advanceSequences(source: CopySource, client: pg.PoolClient, plan: readonly TablePlan[]): Promise<void> {
  for (const { table } of plan) {
    for (const { column, sequence } of table.sequences) {
      const copiedMax = await value<number | null>(client, `SELECT max(${quoteIdentifier(column)}) FROM ${quoteIdentifier(table.name)}`);
      const highest = Math.max(copiedMax ?? 0, source.highestNumberGiven(table.name));
      if (highest > 0) await rows(client, 'SELECT setval(?::regclass, ?)', [sequence, highest]);
    }
  }
}

/** The source must be an existing SQLite file: opening a missing one would create an empty one. */
function openSource(file: string): CopySource {
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch {
    throw new StoreCopyError(`no SQLite file at ${file}`);
  }
  if (!isFile) throw new StoreCopyError(`${file} is not a file`);
  try {
    return openCopySource(file);
  } catch (err) {
    throw new StoreCopyError(`cannot open ${file} as the service's SQLite database: ${messageOf(err)}`, { cause: err });
  }
}

/**
 * Copies every table of the SQLite file (migrated first, as the service opens it) into the
 * PostgreSQL database at `postgresUrl` (migrated first too), hashed keys, tokens and webhook
 * secrets included, so that they keep working there.
 *
 * - The target's application tables must all be empty: otherwise the copy is refused, naming the
 *   first table that holds rows, and writes nothing.
 * - SQLite is read inside one read transaction, so the copy is one consistent snapshot even while
 *   the service keeps writing to the file.
 * - PostgreSQL receives everything in one transaction, each table streamed with COPY in
 *   foreign-key order: any failure (a row PostgreSQL refuses, a connection lost, row counts that
 *   differ afterwards) rolls it all back and leaves the target as it was. Its tables stay locked
 *   against writers until it commits.
 */
export async function copySqliteToPostgres(sqliteFile: string, postgresUrl: string): Promise<StoreCopySummary> {
  const source = openSource(sqliteFile);
  const pool = createPostgresPool(postgresUrl, { max: 1 });
  try {
    const catalog = await applyPostgresMigrations(pool)
      .then(() => readSchemaCatalog(pool))
      .catch((err: unknown) => {
        throw new StoreCopyError(`cannot prepare the PostgreSQL database: ${messageOf(err)}`, { cause: err });
      });
    const plan = planCopy(source, catalog);
    const tables = await inTransaction(pool, async (client) => {
      const names = plan.map(({ table }) => quoteIdentifier(table.name)).join(', ');
      // Writers wait until the copy commits (readers do not), so the target is still empty when it lands.
      await client.query(`LOCK TABLE ${names} IN EXCLUSIVE MODE`);
      const holdingRows = await firstTableWithRows(client, plan);
      if (holdingRows !== undefined) {
        throw new StoreCopyError(`the PostgreSQL database already holds data (table ${holdingRows} has rows), so nothing was copied: copy into a database whose tables are empty`);
      }
      await client.query(`DELETE FROM ${quoteIdentifier(SERVICE_SETTINGS)}`);
      await setTriggers(client, plan, false);
      for (const table of plan) await copyTable(source, client, table);
      // Deferred foreign keys are checked now rather than at COMMIT, so a failure comes before the sequences move.
      await client.query('SET CONSTRAINTS ALL IMMEDIATE').catch((err: unknown) => {
        throw new StoreCopyError(`a copied row breaks a constraint of the PostgreSQL schema, so nothing was copied: ${messageOf(err)}`, { cause: err });
      });
      await setTriggers(client, plan, true);
      const copied = await checkRowCounts(source, client, plan);
      await advanceSequences(source, client, plan);
      return copied;
    });
    return { tables, total: tables.reduce((sum, t) => sum + t.rows, 0) };
  } catch (err) {
    if (err instanceof StoreCopyError) throw err;
    throw new StoreCopyError(`the copy failed, so nothing was copied: ${messageOf(err)}`, { cause: err });
  } finally {
    await pool.end();
    source.close();
  }
}
