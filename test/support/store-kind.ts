import { describe, it } from 'vitest';

/**
 * True in the `fast-postgres` project (vitest.config.ts sets WSAPI_TEST_STORE=postgres): the test
 * helpers then open a fresh PostgreSQL database wherever they would open a SQLite file. Read at
 * each call, never cached: workers of the other projects share the module cache.
 */
export function onPostgres(): boolean {
  return process.env.WSAPI_TEST_STORE === 'postgres';
}

/**
 * For tests about SQLite itself (its file, WAL, busy locks, its migrations): skipped in the
 * PostgreSQL run. Give the reason in a comment on the line; test/README.md lists every use.
 */
export function describeSqliteOnly(name: string, body: () => void): void {
  describe.skipIf(onPostgres())(name, body);
}

/** `it`, skipped in the PostgreSQL run: see `describeSqliteOnly`. */
export function itSqliteOnly(name: string, body: () => Promise<void> | void, timeout?: number): void {
  it.skipIf(onPostgres())(name, body, timeout);
}
