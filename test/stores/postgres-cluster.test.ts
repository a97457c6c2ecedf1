import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { createPostgresDatabase, postgresAvailable } from '../support/postgres.js';

describe.skipIf(!postgresAvailable())('the test run\'s PostgreSQL cluster', () => {
  it('gives each caller a new empty database ordering text by code point, as SQLite does', async () => {
    const [first, second] = [await createPostgresDatabase(), await createPostgresDatabase()];
    expect(first).not.toBe(second);
    const client = new pg.Client({ connectionString: first });
    await client.connect();
    try {
      const tables = await client.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'");
      expect(tables.rows[0].n).toBe(0);
      const sorted = await client.query("SELECT v FROM (VALUES ('b'), ('B'), ('a'), ('é'), ('Z')) AS t(v) ORDER BY v");
      expect(sorted.rows.map((row) => row.v)).toEqual(['B', 'Z', 'a', 'b', 'é']);
    } finally {
      await client.end();
    }
  });
});
