// Import throughput: writes the demo data set sized to about N snapshot lines (40 prompts, six
// platforms, three answers a day, competitors and citations as the demo has them) to a file,
// imports the file into a fresh database through the same streaming path as the CLI, then imports
// it again (every record unchanged): into SQLite, then into PostgreSQL (a throwaway cluster, when
// the server binaries are there). Prints lines/s (wall and per CPU-second, PostgreSQL's server
// processes counted apart) and peak RSS, then each database's ceiling: the same snapshot rows
// written with nothing else (see `sqliteCeiling`, `postgresCeiling`).
// Run alone: `npx tsx bench/import.bench.ts [--lines=200000]`; options it does not know
// (bench/run.ts passes its own) are ignored.
import { createReadStream, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { openSqliteStore } from '../src/store/index.js';
import { importLines, importNdjson, type ImportSummary } from '../src/import/import-ndjson.js';
import { IMPORT_CACHE_SIZE } from '../src/store/sqlite/import/import-run.js';
import { createSnapshotStatements } from '../src/store/sqlite/visibility-import.js';
import { inImportTransaction } from '../src/store/sqlite/import/import-ledger.js';
import { parseTimestamp, DAY_MS } from '../src/store/timestamp.js';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { checkedLines } from '../src/import/checked-lines.js';
import { readUtf8Lines } from '../src/import/utf8-lines.js';
import { createPostgresImportStore } from '../src/store/postgres/import/import-store.js';
import { applyPostgresMigrations } from '../src/store/postgres/migrate.js';
import { createPostgresPool, type PostgresPool } from '../src/store/postgres/pool.js';
import { findPostgresBinaries, startPostgresCluster } from '../scripts/postgres-cluster.js';
import { generateVisibility } from '../src/demo/generate-visibility.js';
import { writeImportFile } from '../src/demo/write-import-file.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const option = (name: string, fallback: number): number => {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
};
const target = option('lines', 200_000);
// The demo writes about 560 snapshots a day at 40 prompts and 3 answers per platform and day.
const SNAPSHOTS_PER_DAY = 560;

async function writeFile(file: string): Promise<{ lines: number; snapshots: number }> {
  let snapshots = 0;
  const days = Math.max(1, Math.round(target / SNAPSHOTS_PER_DAY));
  const lines = await writeImportFile(file, (function* counted() {
    for (const line of generateVisibility({ seed: 42, prompts: 40, days, answersPerDay: 3, today: new Date('2026-11-22T12:00:00Z') })) {
      if (line.startsWith('{"type":"snapshot"')) snapshots += 1;
      yield line;
    }
  })());
  return { lines, snapshots };
}

/** Every snapshot line of the file as the row an import stores (values computed beforehand), and the other lines. */
function snapshotRows(file: string, workspaceId: string): { rows: unknown[][]; others: string[] } {
  const rows: unknown[][] = [];
  const others: string[] = [];
  const stamp = new Date().toISOString();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{"type":"snapshot"')) {
      if (line.length > 0) others.push(line);
      continue;
    }
    const r = JSON.parse(line) as { id: string; prompt_id: string; platform: string; collected_at: string; mentioned: boolean; cited: boolean; competitors: string[]; citations: unknown[]; answer: string };
    const ms = parseTimestamp(r.collected_at)!;
    rows.push([r.id, workspaceId, r.prompt_id, r.platform, ms, Math.floor(ms / DAY_MS), r.mentioned ? 1 : 0, r.cited ? 1 : 0, JSON.stringify(r.competitors), JSON.stringify(r.citations), r.answer, stamp]);
  }
  return { rows, others };
}

const ceilingLine = (label: string, wall: number, snapshots: number): void =>
  console.log(`${label.padEnd(34)} ${wall.toFixed(2)} s wall, ${Math.round(snapshots / wall)} snapshot rows/s`);

/**
 * SQLite's ceiling: SQLite alone writing the same snapshot rows into the real `snapshots` table (its
 * indexes, one transaction with the import's page cache, commit and WAL checkpoint included), every
 * line parsed and every value computed beforehand (competitors as their names, about the size of
 * the ids an import stores), with no validation, id ledger, reference check or rollup. No import
 * that stores these rows in this schema can be faster on this machine.
 */
async function sqliteCeiling(file: string, dbFile: string, snapshots: number): Promise<void> {
  const store = openSqliteStore(dbFile);
  const workspaceId = randomUUID();
  await store.accounts.insertWorkspace({ id: workspaceId, name: 'Ceiling', subscription_status: 'active', created_at: new Date().toISOString() });
  const { rows, others } = snapshotRows(file, workspaceId);
  await importLines(store, workspaceId, others);
  const { insert } = createSnapshotStatements(store.db);
  const t0 = performance.now();
  await inImportTransaction(store.db, IMPORT_CACHE_SIZE, async () => {
    for (const row of rows) insert.run(...row);
  });
  ceilingLine('SQLite ceiling (rows only)', (performance.now() - t0) / 1000, snapshots);
  await store.close();
}

/** COPY's text format: tab-separated, `\N` for null, backslash escapes. */
function copyText(rows: readonly unknown[][]): string {
  const special = /[\\\n\r\t]/;
  const field = (v: unknown): string => {
    if (v === null || v === undefined) return '\\N';
    const text = typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : JSON.stringify(v);
    return special.test(text) ? text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t') : text;
  };
  let out = '';
  for (const row of rows) out += `${row.map(field).join('\t')}\n`;
  return out;
}

/**
 * PostgreSQL's ceiling: the same snapshot rows COPYed straight into the real `snapshots` table of a
 * fresh database (its indexes and foreign keys, one transaction, commit included), the COPY text
 * built beforehand, with no logic at all.
 */
async function postgresCeiling(pool: PostgresPool, file: string, snapshots: number): Promise<void> {
  const workspaceId = randomUUID();
  await applyPostgresMigrations(pool);
  await pool.query("INSERT INTO workspaces (id, name, created_at) VALUES ($1, 'Ceiling', '2026-01-01T00:00:00.000Z')", [workspaceId]);
  const { rows, others } = snapshotRows(file, workspaceId);
  await createPostgresImportStore(pool).run(workspaceId, checkedLines(Readable.from([others])), { events: true, lock: {}, now: () => new Date() });
  const text = copyText(rows);
  const client = await pool.connect();
  try {
    const t0 = performance.now();
    await client.query('BEGIN');
    await pipeline(Readable.from([text]), client.query(copyFrom('COPY snapshots FROM STDIN')));
    await client.query('COMMIT');
    ceilingLine('PostgreSQL ceiling (COPY, rows only)', (performance.now() - t0) / 1000, snapshots);
  } finally {
    client.release();
  }
}

/** CPU seconds the PostgreSQL server's processes have used so far (it runs on this machine). */
async function serverCpuSeconds(pool: PostgresPool): Promise<number> {
  const pids = (await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity')).rows.map((r) => r.pid);
  let seconds = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      // utime and stime, in clock ticks of 1/100 s on Linux.
      seconds += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // A process that ended since.
    }
  }
  return seconds;
}

interface Run {
  label: string;
  wall: number;
  cpu: number;
  serverCpu?: number;
}

function report(run: Run, lines: number): void {
  const server = run.serverCpu === undefined ? '' : ` + ${run.serverCpu.toFixed(2)} s server CPU, ${Math.round(lines / (run.cpu + run.serverCpu))} lines per CPU-second in all`;
  console.log(
    `${run.label.padEnd(34)} ${run.wall.toFixed(2)} s wall, ${Math.round(lines / run.wall)} lines/s; ${run.cpu.toFixed(2)} s CPU, ${Math.round(lines / run.cpu)} lines per CPU-second${server}`,
  );
}

/** Times one import: wall time and this process's CPU time (CPU time beside wall time: on a busy machine the wall clock also measures the neighbours). */
async function timed(label: string, importFile: () => Promise<ImportSummary>, expected: keyof ImportSummary, lines: number, serverCpu?: () => Promise<number>): Promise<Run> {
  const server0 = await serverCpu?.();
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const summary = await importFile();
  const wall = (performance.now() - t0) / 1000;
  const used = process.cpuUsage(cpu);
  if (summary[expected] !== lines) throw new Error(`${label}: expected ${lines} ${expected}, got ${JSON.stringify(summary)}`);
  const run: Run = { label, wall, cpu: (used.user + used.system) / 1e6 };
  if (serverCpu) run.serverCpu = (await serverCpu()) - server0!;
  report(run, lines);
  return run;
}

async function sqliteRuns(dir: string, file: string, lines: number): Promise<Run[]> {
  const store = openSqliteStore(path.join(dir, 'bench.db'));
  const workspaceId = randomUUID();
  await store.accounts.insertWorkspace({ id: workspaceId, name: 'Benchmark', subscription_status: 'active', created_at: new Date().toISOString() });
  const importFile = () => importNdjson(store, workspaceId, createReadStream(file));
  const runs = [await timed('SQLite first import (inserted)', importFile, 'inserted', lines), await timed('SQLite second import (unchanged)', importFile, 'unchanged', lines)];
  await store.close();
  return runs;
}

async function postgresRuns(pool: PostgresPool, file: string, lines: number): Promise<Run[]> {
  const workspaceId = randomUUID();
  await pool.query("INSERT INTO workspaces (id, name, created_at) VALUES ($1, 'Benchmark', '2026-01-01T00:00:00.000Z')", [workspaceId]);
  const imports = createPostgresImportStore(pool);
  // The streaming path of importNdjson: the file read chunk by chunk, each line checked, then the store's import.
  const importFile = () =>
    imports.run(workspaceId, checkedLines(readUtf8Lines(createReadStream(file), 16 * 1024 * 1024)), { events: true, lock: {}, now: () => new Date() });
  const server = () => serverCpuSeconds(pool);
  return [
    await timed('PostgreSQL first import (inserted)', importFile, 'inserted', lines, server),
    await timed('PostgreSQL second import (unchanged)', importFile, 'unchanged', lines, server),
  ];
}

async function main(): Promise<void> {
  const dir = path.join(here, '.data', `import-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    const file = path.join(dir, 'demo.ndjson');
    const { lines, snapshots } = await writeFile(file);
    const mb = (bytes: number): string => `${(bytes / 1_048_576).toFixed(0)} MB`;
    console.log(`machine: ${os.cpus().length} cores, node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`file: ${lines} lines (${snapshots} snapshots), ${mb(statSync(file).size)}`);
    const rssBefore = process.memoryUsage().rss;
    const sqlite = await sqliteRuns(dir, file, lines);
    console.log(`RSS before the imports ${mb(rssBefore)}, peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
    await sqliteCeiling(file, path.join(dir, 'ceiling.db'), snapshots);
    const found = findPostgresBinaries();
    if ('missing' in found) {
      console.log(`PostgreSQL runs skipped: ${found.missing}`);
      return;
    }
    const cluster = await startPostgresCluster();
    const pool = createPostgresPool(cluster.url());
    try {
      await applyPostgresMigrations(pool);
      const postgres = await postgresRuns(pool, file, lines);
      console.log(`peak RSS after the PostgreSQL imports ${mb(process.resourceUsage().maxRSS * 1024)}`);
      await pool.query('CREATE DATABASE ceiling');
      const ceilingPool = createPostgresPool(cluster.url('ceiling'));
      await postgresCeiling(ceilingPool, file, snapshots).finally(() => ceilingPool.end());
      for (const [i, what] of ['first import', 'second import'].entries()) {
        console.log(`PostgreSQL / SQLite, ${what}: ${(sqlite[i]!.wall / postgres[i]!.wall).toFixed(2)} × the lines/s`);
      }
    } finally {
      await pool.end();
      cluster.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
