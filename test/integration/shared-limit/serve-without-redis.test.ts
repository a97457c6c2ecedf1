import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { loadConfig } from '../../../src/config.js';
import { startServer } from '../../../src/server.js';
import { freePort } from '../../support/free-port.js';
import { sqliteTestStoreForThisTest } from '../../support/test-server.js';
import { createPostgresDatabase, postgresAvailable } from '../../support/postgres.js';

/**
 * Starts the service as `serve` does with `env` and returns its warnings: over the database
 * DATABASE_URL names (it opens its own store), or a test SQLite file without it.
 */
async function warningsOfServe(env: Record<string, string>): Promise<string[]> {
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  const store = env.DATABASE_URL === undefined ? sqliteTestStoreForThisTest().store : undefined;
  const running = await startServer(loadConfig({ ...env, PORT: '0', HOST: '127.0.0.1' }), { store, logger: pino({ level: 'info' }, sink) });
  await running.close();
  return lines.filter((l) => l.level === 40).map((l) => l.msg);
}

const PG_WARNING = 'DATABASE_URL names PostgreSQL but REDIS_URL is not set: the rate limits are counted in this process only, '
  + 'so several instances would each admit the whole quota (docs/operators.md, "Running several instances")';

describe.skipIf(!postgresAvailable())('serve', () => {
  it('when it runs on PostgreSQL without REDIS_URL, warns that several instances would not share the rate limit', async () => {
    const databaseUrl = await createPostgresDatabase();
    expect(await warningsOfServe({ DATABASE_URL: databaseUrl })).toContain(PG_WARNING);
    expect(await warningsOfServe({ DATABASE_URL: databaseUrl.replace(/^postgres:/, 'postgresql:') })).toContain(PG_WARNING);
  });

  it('does not warn on SQLite, nor on PostgreSQL with REDIS_URL (it says so when that Redis does not answer at the start)', async () => {
    expect(await warningsOfServe({})).toEqual([]);
    const nobody = await freePort();
    const warnings = await warningsOfServe({ DATABASE_URL: await createPostgresDatabase(), REDIS_URL: `redis://127.0.0.1:${nobody}` });
    expect(warnings).not.toContain(PG_WARNING);
    expect(warnings).toContain('redis did not answer within 2000 ms of starting: requests answer 503 and /readyz names it until it does');
  });
});
