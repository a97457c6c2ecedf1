import type { Queryable } from './query.js';
import { rows } from './query.js';

/** A table of the application's schema, as PostgreSQL's catalog describes it. */
export interface CatalogTable {
  name: string;
  /** In the table's column order. */
  columns: Array<{ name: string; dataType: string }>;
  /** The tables its foreign keys point to (itself included when it refers to its own rows). */
  references: string[];
  /** Columns numbered by a sequence (identity or serial), with the sequence's name. */
  sequences: Array<{ column: string; sequence: string }>;
  /** Its own triggers (not the ones PostgreSQL makes for foreign keys), with their state in `pg_trigger.tgenabled`. */
  triggers: Array<{ name: string; enabled: 'O' | 'D' | 'R' | 'A' }>;
}

/** The ledger of applied migrations: part of each database's own history, never data to copy. */
export const MIGRATION_LEDGER = 'schema_migrations';

/**
 * Values the service generated for itself (the cursor secret): a database the service has started
 * on holds them before any data, and a copy replaces them with the source's.
 */
export const SERVICE_SETTINGS = 'service_settings';

/** `"name"`, safe for any name PostgreSQL or SQLite allows. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Every base table of the current schema but the migration ledger, by name, with its columns,
 * foreign keys, sequences and triggers.
 */
export async function readSchemaCatalog(on: Queryable): Promise<Map<string, CatalogTable>> {
  const tables = new Map<string, CatalogTable>();
  const names = await rows<{ table_name: string }>(on, `SELECT table_name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> ? ORDER BY table_name`, [MIGRATION_LEDGER]);
  for (const { table_name: name } of names) tables.set(name, { name, columns: [], references: [], sequences: [], triggers: [] });
  const table = (name: string): CatalogTable | undefined => tables.get(name);

  const columns = await rows<{ table_name: string; column_name: string; data_type: string; sequence: string | null }>(on,
    `SELECT table_name, column_name, data_type,
       pg_get_serial_sequence(format('%I.%I', table_schema, table_name), column_name) AS sequence
     FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`);
  for (const c of columns) {
    table(c.table_name)?.columns.push({ name: c.column_name, dataType: c.data_type });
    if (c.sequence !== null) table(c.table_name)?.sequences.push({ column: c.column_name, sequence: c.sequence });
  }

  const references = await rows<{ child: string; parent: string }>(on,
    `SELECT DISTINCT child.relname AS child, parent.relname AS parent
     FROM pg_constraint k
     JOIN pg_class child ON child.oid = k.conrelid
     JOIN pg_class parent ON parent.oid = k.confrelid
     WHERE k.contype = 'f' AND child.relnamespace = current_schema()::regnamespace
     ORDER BY 1, 2`);
  for (const r of references) table(r.child)?.references.push(r.parent);

  const triggers = await rows<{ table_name: string; name: string; enabled: CatalogTable['triggers'][number]['enabled'] }>(on,
    `SELECT c.relname AS table_name, t.tgname AS name, t.tgenabled AS enabled
     FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace
     ORDER BY 1, 2`);
  for (const t of triggers) table(t.table_name)?.triggers.push({ name: t.name, enabled: t.enabled });
  return tables;
}

/**
 * The tables in an order where every table comes after the tables its foreign keys point to, so
 * that each row's references exist when it arrives; among tables free to go, by name. A table's
 * reference to itself does not hold it back. Tables caught in a cycle come last, by name (their
 * foreign keys must then be DEFERRABLE, checked when the transaction's rows are all in).
 */
export function tablesInForeignKeyOrder(tables: ReadonlyMap<string, CatalogTable>): CatalogTable[] {
  const ordered: CatalogTable[] = [];
  const placed = new Set<string>();
  const waiting = [...tables.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let progress = true;
  while (waiting.length > 0 && progress) {
    progress = false;
    const ready = waiting.findIndex((t) => t.references.every((r) => r === t.name || placed.has(r) || !tables.has(r)));
    if (ready !== -1) {
      const [next] = waiting.splice(ready, 1);
      ordered.push(next!);
      placed.add(next!.name);
      progress = true;
    }
  }
  return [...ordered, ...waiting];
}
