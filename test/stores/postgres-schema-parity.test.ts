import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import type { PostgresPool } from '../../src/store/postgres/pool.js';
import { rows } from '../../src/store/postgres/query.js';
import { createMigratedPostgresPool, postgresAvailable } from '../support/postgres.js';

type Family = 'integer' | 'real' | 'text' | 'blob';

interface Column {
  name: string;
  family: Family;
  notNull: boolean;
}

/** An index by what it does: unique or not, its keys (`lower(email)` in PostgreSQL is SQLite's `email` under NOCASE), partial or not. */
interface IndexShape {
  unique: boolean;
  keys: string[];
  partial: boolean;
}

interface ForeignKey {
  from: string;
  table: string;
  to: string;
  onDelete: string;
}

const SQLITE_FAMILY: Record<string, Family> = { INTEGER: 'integer', REAL: 'real', TEXT: 'text', BLOB: 'blob' };
const POSTGRES_FAMILY: Record<string, Family> = {
  bigint: 'integer',
  integer: 'integer',
  smallint: 'integer',
  'double precision': 'real',
  real: 'real',
  text: 'text',
  bytea: 'blob',
};
const POSTGRES_ON_DELETE: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

/** The foreign keys of a table in one order, whichever order each database lists them in. */
const sorted = (keys: ForeignKey[]): ForeignKey[] => [...keys].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

function sqliteTables(db: Db): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
}

function sqliteColumns(db: Db, table: string): Column[] {
  const info = db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string; type: string; notnull: number; pk: number }>;
  // A primary key column never holds NULL in practice; SQLite's pragma says notnull = 0 for a rowid alias.
  return info.map((c) => ({ name: c.name, family: SQLITE_FAMILY[c.type]!, notNull: c.notnull === 1 || c.pk > 0 }));
}

/** Every index of the table by name; SQLite's automatic ones (for UNIQUE and PRIMARY KEY) under their key list instead. */
function sqliteIndexes(db: Db, table: string): { named: Record<string, IndexShape>; unnamedUnique: string[][] } {
  const list = db.prepare(`PRAGMA index_list(${table})`).all() as Array<{ name: string; unique: number; origin: string; partial: number }>;
  const named: Record<string, IndexShape> = {};
  const unnamedUnique: string[][] = [];
  for (const index of list) {
    const info = db.prepare(`PRAGMA index_xinfo(${index.name})`).all() as Array<{ name: string | null; key: number; coll: string }>;
    const keys = info.filter((c) => c.key === 1).map((c) => (c.coll === 'NOCASE' ? `lower(${c.name})` : c.name!));
    if (index.origin === 'c') named[index.name] = { unique: index.unique === 1, keys, partial: index.partial === 1 };
    else if (index.origin === 'u') unnamedUnique.push(keys);
  }
  return { named, unnamedUnique: unnamedUnique.sort() };
}

function sqliteForeignKeys(db: Db, table: string): ForeignKey[] {
  const list = db.prepare(`PRAGMA foreign_key_list(${table})`).all() as Array<{ table: string; from: string; to: string; on_delete: string }>;
  return sorted(list.map((k) => ({ from: k.from, table: k.table, to: k.to, onDelete: k.on_delete })));
}

async function postgresTables(pool: PostgresPool): Promise<string[]> {
  const found = await rows<{ table_name: string }>(pool,
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name");
  return found.map((r) => r.table_name);
}

async function postgresColumns(pool: PostgresPool, table: string): Promise<Array<Column & { collation: string | null }>> {
  const found = await rows<{ column_name: string; data_type: string; is_nullable: string; collation_name: string | null }>(pool,
    `SELECT column_name, data_type, is_nullable, collation_name FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name = ? ORDER BY ordinal_position`, [table]);
  return found.map((c) => ({
    name: c.column_name,
    family: POSTGRES_FAMILY[c.data_type]!,
    notNull: c.is_nullable === 'NO',
    collation: c.collation_name,
  }));
}

async function postgresIndexes(pool: PostgresPool, table: string): Promise<Record<string, IndexShape & { primary: boolean; constraint: boolean }>> {
  const found = await rows<{ name: string; unique: boolean; primary: boolean; partial: boolean; constraint: boolean; keys: string[] }>(pool,
    `SELECT c.relname AS name, i.indisunique AS unique, i.indisprimary AS primary, i.indpred IS NOT NULL AS partial,
            EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid) AS constraint,
            array(SELECT pg_get_indexdef(i.indexrelid, n, true) FROM generate_series(1, i.indnkeyatts) AS n ORDER BY n) AS keys
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
     WHERE t.relname = ? AND t.relnamespace = 'public'::regnamespace`, [table]);
  return Object.fromEntries(found.map(({ name, ...shape }) => [name, shape]));
}

async function postgresForeignKeys(pool: PostgresPool, table: string): Promise<ForeignKey[]> {
  const found = await rows<{ from: string; table: string; to: string; on_delete: string }>(pool,
    `SELECT a.attname AS from, r.relname AS table, ra.attname AS to, k.confdeltype AS on_delete
     FROM pg_constraint k
     JOIN pg_class t ON t.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
     JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
     JOIN pg_attribute ra ON ra.attrelid = k.confrelid AND ra.attnum = k.confkey[1]
     WHERE k.contype = 'f' AND t.relname = ? AND t.relnamespace = 'public'::regnamespace`, [table]);
  return sorted(found.map((k) => ({ from: k.from, table: k.table, to: k.to, onDelete: POSTGRES_ON_DELETE[k.on_delete]! })));
}

describe.skipIf(!postgresAvailable())('the PostgreSQL schema after every migration, compared with SQLite\'s', () => {
  let dir: string;
  let sqlite: Db;
  let pool: PostgresPool;
  let tables: string[];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'wsapi-parity-'));
    sqlite = openDatabase(path.join(dir, 'parity.db'));
    pool = await createMigratedPostgresPool();
    tables = sqliteTables(sqlite);
  });
  afterAll(async () => {
    sqlite?.close();
    await pool?.end();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has the same tables', async () => {
    expect(tables).toContain('schema_migrations');
    expect(tables).toContain('event_feed');
    expect(await postgresTables(pool)).toEqual(tables);
  });

  it('gives every table the same columns, in the same order, of the same type family and nullability', async () => {
    for (const table of tables) {
      const columns = (await postgresColumns(pool, table)).map(({ collation: _, ...column }) => column);
      expect({ table, columns }).toEqual({ table, columns: sqliteColumns(sqlite, table) });
    }
  });

  it('orders and compares every text column by code point (collation "C"), whatever the server locale', async () => {
    for (const table of tables) {
      for (const column of await postgresColumns(pool, table)) {
        if (column.family === 'text') expect({ table, column: column.name, collation: column.collation }).toEqual({ table, column: column.name, collation: 'C' });
      }
    }
  });

  it('has every named index of SQLite, on the same table and keys, as unique and as partial', async () => {
    let compared = 0;
    for (const table of tables) {
      const indexes = await postgresIndexes(pool, table);
      for (const [name, shape] of Object.entries(sqliteIndexes(sqlite, table).named)) {
        const found = indexes[name];
        expect({ table, name, shape: found && { unique: found.unique, keys: found.keys, partial: found.partial } }).toEqual({ table, name, shape });
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(40);
  });

  it('keeps every UNIQUE constraint of SQLite on the same keys (NOCASE as lower())', async () => {
    for (const table of tables) {
      const indexes = Object.values(await postgresIndexes(pool, table));
      const postgresUnique = indexes.filter((i) => i.unique && !i.primary && !i.partial && (i.constraint || i.keys.some((k) => k.startsWith('lower(')))).map((i) => i.keys).sort();
      expect({ table, unique: postgresUnique }).toEqual({ table, unique: sqliteIndexes(sqlite, table).unnamedUnique });
    }
  });

  it('has the same foreign keys with the same ON DELETE rules', async () => {
    let compared = 0;
    for (const table of tables) {
      const expected = sqliteForeignKeys(sqlite, table);
      expect({ table, keys: await postgresForeignKeys(pool, table) }).toEqual({ table, keys: expected });
      compared += expected.length;
    }
    expect(compared).toBeGreaterThan(30);
  });
});
