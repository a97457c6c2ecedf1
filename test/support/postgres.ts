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
export async function createPostgresDatabase(prefix = 'wsapi', options: { defaultCollation?: string } = {}): Promise<string> {
  const adminUrl = inject('postgresAdminUrl');
  if (adminUrl === '') throw new Error('no PostgreSQL cluster in this run (see the notice at the start of the run)');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const locale = options.defaultCollation === undefined
      ? "LC_COLLATE 'C' LC_CTYPE 'C'"
      : `LOCALE_PROVIDER icu ICU_LOCALE ${client.escapeLiteral(options.defaultCollation)} LOCALE 'C'`;
    await client.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' ${locale}`);
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
