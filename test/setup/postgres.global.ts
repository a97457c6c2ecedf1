import type { TestProject } from 'vitest/node';
import { findPostgresBinaries, startPostgresCluster, type PostgresCluster } from '../../scripts/postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throwaway cluster's admin URL, or '' when PostgreSQL runs are skipped (no binaries, no CI). */
    postgresAdminUrl: string;
  }
}

let cluster: PostgresCluster | undefined;

/**
 * One throwaway PostgreSQL cluster for the whole run; each test file creates its own database in
 * it (`test/support/postgres.ts`). With WSAPI_TEST_POSTGRES_ADMIN_URL set (a run a test starts,
 * test/scaffold/), the cluster it names instead. Without the server binaries the PostgreSQL runs
 * are skipped with a notice, except under CI, where a missing PostgreSQL fails the run.
 */
export async function setup(project: TestProject): Promise<void> {
  const given = process.env.WSAPI_TEST_POSTGRES_ADMIN_URL;
  if (given) {
    project.provide('postgresAdminUrl', given);
    return;
  }
  const found = findPostgresBinaries();
  if ('missing' in found) {
    if (process.env.CI) throw new Error(`CI is set and PostgreSQL is missing: ${found.missing}`);
    const line = '='.repeat(100);
    console.warn(`\n${line}\nSKIPPING EVERY POSTGRESQL RUN: ${found.missing}\n${line}\n`);
    project.provide('postgresAdminUrl', '');
    return;
  }
  cluster = await startPostgresCluster();
  project.provide('postgresAdminUrl', cluster.url());
}

export function teardown(): void {
  cluster?.stop();
}
