import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { seededRandom } from '../../../src/demo/demo-random.js';
import { generateDemoData } from '../../../src/demo/generate-demo-data.js';
import { createPostgresImportStore } from '../../../src/store/postgres/import/import-store.js';
import { createPostgresPool, type PostgresPool } from '../../../src/store/postgres/pool.js';
import { applyPostgresMigrations } from '../../../src/store/postgres/migrate.js';
import { value } from '../../../src/store/postgres/query.js';
import { checkedLines } from '../../../src/import/checked-lines.js';
import { postgresContents } from '../../support/import-parity.js';
import { createPostgresDatabase, postgresAvailable } from '../../support/postgres.js';
import { until } from '../../support/wait.js';

const CHILD = fileURLToPath(new URL('../../support/postgres-import-child.mjs', import.meta.url));
// Each kill costs a process start and a comparison of the whole database; two kills at random
// points of the file show the rollback as four did.
const KILLS = 2;
// The imports' clocks: the answers each writes carry the same stamps in every run.
const BEFORE = (): Date => new Date('2026-11-22T13:00:00.000Z');
const CHILD_CLOCK = '2026-11-22T14:00:00.000Z';

/** The import lock (src/store/postgres/migrations/README.md) is held: an import's transaction is open. */
async function importRunning(pool: PostgresPool): Promise<boolean> {
  return (await value<number>(pool, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242100 AND granted")) === 1;
}

/** Starts the child importing `file`; resolves when it exits (its output, or how it was killed). */
function startImport(url: string, workspaceId: string, file: string) {
  const child = spawn(process.execPath, [CHILD, url, workspaceId, file, CHILD_CLOCK], { stdio: ['pipe', 'pipe', 'pipe'] });
  if (file !== '-') child.stdin.end();
  // Writes still in the pipe when the test kills the reader fail with EPIPE: expected, not an error.
  child.stdin.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal, out }));
  });
  return { child, exited };
}

describe.skipIf(!postgresAvailable())('import on PostgreSQL: a process killed mid-import', () => {
  it('when the importing process is killed with SIGKILL at random moments, the database is each time exactly as before, and the import then runs whole', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pg-import-crash-'));
    const url = await createPostgresDatabase();
    const pool = createPostgresPool(url);
    onTestFinished(async () => {
      await pool.end();
      rmSync(dir, { recursive: true, force: true });
    });
    await applyPostgresMigrations(pool);
    const workspaceId = randomUUID();
    await pool.query("INSERT INTO workspaces (id, name, created_at) VALUES ($1, 'Crash', '2026-01-01T00:00:00.000Z')", [workspaceId]);

    // What the database holds before: the records and a third of the answers, so the file brings new rows among stored ones.
    const today = new Date('2026-11-22T12:00:00Z');
    const lines = [...generateDemoData({ seed: 3, prompts: 12, days: 60, answersPerDay: 2, today, idNamespace: workspaceId })];
    const earlier = lines.filter((line, i) => !line.startsWith('{"type":"snapshot"') || i % 3 === 0);
    async function* once(): AsyncGenerator<string[]> {
      yield earlier;
    }
    await createPostgresImportStore(pool).run(workspaceId, checkedLines(once()), { events: true, lock: {}, now: BEFORE });
    const file = path.join(dir, 'import.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const before = await postgresContents(pool);

    // How long an import holds its transaction here, from taking the lock to exiting.
    const timed = startImport(url, workspaceId, file);
    await until(() => importRunning(pool), 60_000, 'the import taking its lock');
    const t0 = Date.now();
    await timed.exited.then(({ code, out }) => expect(code, out).toBe(0));
    const duration = Date.now() - t0;
    const after = await postgresContents(pool);
    expect(after).not.toEqual(before);

    // Each round starts from the state before the file and kills the process somewhere in its first
    // part: the import reads the file from a pipe the test has written only that part into and
    // keeps open, so the process is still importing when the kill comes, however fast it runs.
    await pool.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    await applyPostgresMigrations(pool);
    await pool.query("INSERT INTO workspaces (id, name, created_at) VALUES ($1, 'Crash', '2026-01-01T00:00:00.000Z')", [workspaceId]);
    await createPostgresImportStore(pool).run(workspaceId, checkedLines(once()), { events: true, lock: {}, now: BEFORE });
    expect(await postgresContents(pool)).toEqual(before);
    const random = seededRandom(20_261_123);
    for (let round = 1; round <= KILLS; round += 1) {
      const { child, exited } = startImport(url, workspaceId, '-');
      const part = 0.1 + 0.8 * random();
      child.stdin.write(`${lines.slice(0, Math.floor(lines.length * part)).join('\n')}\n`);
      await until(() => importRunning(pool), 60_000, 'the import taking its lock');
      await new Promise((resolve) => setTimeout(resolve, duration * part * random()));
      child.kill('SIGKILL');
      expect((await exited).signal, `round ${round}: the process was still importing when killed`).toBe('SIGKILL');
      // The server ends the transaction of a connection that went away, and frees its lock.
      await until(async () => !(await importRunning(pool)), 30_000, 'the killed import rolling back');
      expect(await postgresContents(pool), `round ${round}`).toEqual(before);
    }

    const whole = startImport(url, workspaceId, file);
    await whole.exited.then(({ code, out }) => expect(code, out).toBe(0));
    expect(await postgresContents(pool)).toEqual(after);
  }, 300_000);
});
