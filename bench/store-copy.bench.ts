// `store copy` (SQLite → PostgreSQL) throughput and memory at two sizes of the demo's visibility
// data (40 prompts, six platforms, three answers a day, sized to about N snapshots), each copied
// into a new database of a throwaway PostgreSQL cluster by a process of its own, so that its peak
// RSS is the copy's alone. Memory must not grow with the size: rows are streamed, never gathered.
// Run alone: `npx tsx bench/store-copy.bench.ts [--snapshots=50000,500000]`; options it does not
// know (bench/run.ts passes its own) are ignored.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPostgresCluster } from '../scripts/postgres-cluster.js';
import { generateVisibility } from '../src/demo/generate-visibility.js';
import { importLines } from '../src/import/import-ndjson.js';
import { copySqliteToPostgres } from '../src/store/postgres/copy-from-sqlite.js';
import { openSqliteStore } from '../src/store/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const SNAPSHOTS_PER_DAY = 560; // 40 prompts × 6 platforms × about 2.3 answers kept a day
const mb = (bytes: number): string => `${(bytes / 1_048_576).toFixed(0)} MB`;

interface ChildReport {
  rows: number;
  wallSeconds: number;
  cpuSeconds: number;
  rssBefore: number;
  peakRss: number;
}

/** The measured process: one copy, its RSS sampled every 10 ms (the copy yields to the event loop between chunks). */
async function copyChild(file: string, url: string): Promise<void> {
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 10);
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const summary = await copySqliteToPostgres(file, url);
  const wallSeconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const used = process.cpuUsage(cpu);
  const report: ChildReport = { rows: summary.total, wallSeconds, cpuSeconds: (used.user + used.system) / 1e6, rssBefore, peakRss };
  console.log(JSON.stringify(report));
}

async function buildSqlite(file: string, snapshots: number): Promise<void> {
  const store = openSqliteStore(file);
  const workspaceId = randomUUID();
  await store.accounts.insertWorkspace({ id: workspaceId, name: 'Benchmark', subscription_status: 'active', created_at: new Date().toISOString() });
  const days = Math.max(1, Math.round(snapshots / SNAPSHOTS_PER_DAY));
  await importLines(store, workspaceId, generateVisibility({ seed: 42, prompts: 40, days, answersPerDay: 3, today: new Date('2026-11-22T12:00:00Z'), idNamespace: workspaceId }), { events: false });
  await store.close();
}

async function main(): Promise<void> {
  const sizes = (process.argv.find((a) => a.startsWith('--snapshots='))?.split('=')[1] ?? '50000,500000').split(',').map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error('--snapshots takes positive integers, comma-separated');
  const dir = path.join(here, '.data', `store-copy-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const cluster = await startPostgresCluster();
  try {
    console.log(`machine: ${os.cpus().length} cores, node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    for (const size of sizes) {
      const file = path.join(dir, `copy-${size}.db`);
      await buildSqlite(file, size);
      const admin = new pg.Client({ connectionString: cluster.url() });
      await admin.connect();
      const name = `copy_${size}`;
      await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
      await admin.end();
      const url = new URL(cluster.url());
      url.pathname = `/${name}`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--copy-child', file, url.toString()], { encoding: 'utf8' });
      if (child.status !== 0) throw new Error(`the copy of ${size} snapshots failed: ${child.stderr}`);
      const r = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as ChildReport;
      console.log(`~${size} snapshots, file ${mb(statSync(file).size)}: ${r.rows} rows in ${r.wallSeconds.toFixed(2)} s wall `
        + `(${Math.round(r.rows / r.wallSeconds)} rows/s), ${r.cpuSeconds.toFixed(2)} s CPU; RSS ${mb(r.rssBefore)} before, peak ${mb(r.peakRss)} `
        + `(+${mb(r.peakRss - r.rssBefore)})`);
    }
  } finally {
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const child = process.argv.indexOf('--copy-child');
if (child !== -1) await copyChild(process.argv[child + 1]!, process.argv[child + 2]!);
else await main();
