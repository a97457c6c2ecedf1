import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresPool, pingPostgres, type PostgresPool } from '../../src/store/postgres/pool.js';
import { inTransaction, row, rows, run, value } from '../../src/store/postgres/query.js';
import { createPostgresDatabase, postgresAvailable } from '../support/postgres.js';

describe.skipIf(!postgresAvailable())('PostgreSQL pool and query helpers', () => {
  let pool: PostgresPool;

  beforeAll(async () => {
    pool = createPostgresPool(await createPostgresDatabase());
    await pool.query('CREATE TABLE items (id TEXT COLLATE "C" PRIMARY KEY, n BIGINT NOT NULL, share DOUBLE PRECISION)');
  });
  afterAll(async () => {
    await pool?.end();
  });

  it('answers a ping', async () => {
    await expect(pingPostgres(pool)).resolves.toBeUndefined();
  });

  it('reads BIGINT, count(*) and sums as numbers, like better-sqlite3 reads SQLite integers', async () => {
    await run(pool, 'INSERT INTO items (id, n, share) VALUES (@id, @n, @share)', { id: 'p1', n: 1_700_000_000_123, share: 0.25 });
    await run(pool, 'INSERT INTO items (id, n, share) VALUES (?, ?, ?)', ['p2', 7, null]);
    expect(await rows(pool, "SELECT * FROM items WHERE id LIKE 'p%' ORDER BY id")).toEqual([
      { id: 'p1', n: 1_700_000_000_123, share: 0.25 },
      { id: 'p2', n: 7, share: null },
    ]);
    expect(await value(pool, "SELECT count(*) FROM items WHERE id LIKE 'p%'")).toBe(2);
    expect(await value(pool, "SELECT sum(n) FROM items WHERE id LIKE 'p%'")).toBe(1_700_000_000_130);
    expect(await value(pool, 'SELECT avg(n) FROM items WHERE id = ?', ['p2'])).toBe(7);
  });

  it('refuses a BIGINT past the largest exact JS integer instead of rounding it', async () => {
    await expect(value(pool, 'SELECT 9007199254740993::bigint')).rejects.toThrow(/largest exact JS integer/);
  });

  it('leaves the global type parsers of node-postgres alone', async () => {
    const pg = (await import('pg')).default;
    const client = new pg.Client({ connectionString: (pool.options as { connectionString: string }).connectionString });
    await client.connect();
    try {
      expect((await client.query('SELECT 5::bigint AS n')).rows[0]).toEqual({ n: '5' });
    } finally {
      await client.end();
    }
  });

  it('gives row and value undefined when nothing matches, and run the number of rows changed', async () => {
    expect(await row(pool, 'SELECT * FROM items WHERE id = ?', ['none'])).toBeUndefined();
    expect(await value(pool, 'SELECT n FROM items WHERE id = ?', ['none'])).toBeUndefined();
    await run(pool, 'INSERT INTO items (id, n) VALUES (?, 1), (?, 1)', ['r1', 'r2']);
    expect(await run(pool, "UPDATE items SET n = n + 1 WHERE id IN ('r1', 'r2')")).toBe(2);
  });

  it('refuses missing parameters as better-sqlite3 does', async () => {
    await expect(rows(pool, 'SELECT * FROM items WHERE id = @id', {})).rejects.toThrow(/missing named parameter @id/);
    await expect(rows(pool, 'SELECT * FROM items WHERE id = ?', [])).rejects.toThrow(/expects parameters/);
  });

  it('commits a transaction that resolves and rolls back one that throws, on one connection', async () => {
    const seen = await inTransaction(pool, async (client) => {
      await run(client, 'INSERT INTO items (id, n) VALUES (?, 1)', ['t1']);
      return value<number>(client, 'SELECT count(*) FROM items WHERE id = ?', ['t1']);
    });
    expect(seen).toBe(1);
    await expect(
      inTransaction(pool, async (client) => {
        await run(client, 'INSERT INTO items (id, n) VALUES (?, 1)', ['t2']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await rows(pool, "SELECT id FROM items WHERE id IN ('t1', 't2') ORDER BY id")).toEqual([{ id: 't1' }]);
    expect(pool.totalCount).toBe(pool.idleCount);
  });
});
