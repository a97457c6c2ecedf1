import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import pg from 'pg';
import { applyPostgresMigrations } from '../../src/store/postgres/migrate.js';
import { createPostgresPool, type PostgresPool } from '../../src/store/postgres/pool.js';

/** True when the run has a throwaway PostgreSQL cluster (`test/setup/postgres.global.ts`). */
export function postgresAvailable(): boolean {
  return inject('postgresAdminUrl') !== '';
}

/**
 * A new, empty database in the run's cluster, for one test file or one test; its URL. Databases
 * are dropped with the cluster at the end of the run. `defaultCollation` gives it an ICU locale's
 * text order by default (`'en-US'`: `a B é Z`), as production servers often have, instead of the
 * code-point order of "C": reads whose order must not depend on it can be checked there.
 */
export async function createPostgresDatabase(prefix = 'wsapi', options: { defaultCollation?: string; template?: string } = {}): Promise<string> {
  const adminUrl = inject('postgresAdminUrl');
  if (adminUrl === '') throw new Error('no PostgreSQL cluster in this run (see the notice at the start of the run)');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const locale = options.defaultCollation === undefined
      ? "LC_COLLATE 'C' LC_CTYPE 'C'"
      : `LOCALE_PROVIDER icu ICU_LOCALE ${client.escapeLiteral(options.defaultCollation)} LOCALE 'C'`;
    await client.query(options.template === undefined
      ? `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' ${locale}`
      : `CREATE DATABASE ${name} TEMPLATE ${client.escapeIdentifier(options.template)} STRATEGY FILE_COPY`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A pool on a new database of the run's cluster with every PostgreSQL migration applied, as the
 * service opens one. The caller ends it (`pool.end()`).
 */
export async function createMigratedPostgresPool(): Promise<PostgresPool> {
  const pool = createPostgresPool(await createPostgresDatabase());
  await applyPostgresMigrations(pool);
  return pool;
}

/**
 * Per cluster (the run's admin URL), a database with every migration applied that nothing
 * connects to: copying it (CREATE DATABASE ... TEMPLATE) costs far less than migrating each new
 * database, which matters when every test of the PostgreSQL run opens its own.
 */
const migratedTemplates = new Map<string, Promise<string>>();

function migratedTemplate(): Promise<string> {
  const adminUrl = inject('postgresAdminUrl');
  let template = migratedTemplates.get(adminUrl);
  if (template === undefined) {
    template = (async () => {
      const url = await createPostgresDatabase('wsapi_template');
      const pool = createPostgresPool(url);
      try {
        await applyPostgresMigrations(pool);
      } finally {
        await pool.end();
      }
      return new URL(url).pathname.slice(1);
    })();
    migratedTemplates.set(adminUrl, template);
  }
  return template;
}

/** A new database of the run's cluster with every PostgreSQL migration applied; its URL. */
export async function createMigratedPostgresDatabase(prefix = 'wsapi'): Promise<string> {
  return createPostgresDatabase(prefix, { template: await migratedTemplate() });
}

/** Drops a database `createPostgresDatabase` made, once every connection to it has ended. */
export async function dropPostgresDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(new URL(url).pathname.slice(1))} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
