// Import throughput: writes the demo data set sized to about N snapshot lines (40 prompts, six
// platforms, three answers a day, competitors and citations as the demo has them) to a file,
// imports the file into a fresh database through the same streaming path as the CLI, then imports
// it again (every record unchanged). Prints lines/s (wall and per CPU-second) and peak RSS, then
// the ceiling: SQLite alone writing the same rows (see `ceiling`).
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

/**
 * The ceiling: SQLite alone writing the same snapshot rows into the real `snapshots` table (its
 * three indexes, one transaction with the import's page cache, commit and WAL checkpoint
 * included), every line parsed and every value computed beforehand (competitors as their names,
 * about the size of the ids an import stores), with no validation, id ledger, reference check or
 * rollup. No import that stores these rows in this schema can be faster on this machine.
 */
async function ceiling(file: string, dbFile: string, snapshots: number): Promise<void> {
  const store = openSqliteStore(dbFile);
  const workspaceId = randomUUID();
  await store.accounts.insertWorkspace({ id: workspaceId, name: 'Ceiling', subscription_status: 'active', created_at: new Date().toISOString() });
  const rows: unknown[][] = [];
  const others: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{"type":"snapshot"')) {
      if (line.length > 0) others.push(line);
      continue;
    }
    const r = JSON.parse(line) as { id: string; prompt_id: string; platform: string; collected_at: string; mentioned: boolean; cited: boolean; competitors: string[]; citations: unknown[]; answer: string };
    const ms = parseTimestamp(r.collected_at)!;
    rows.push([r.id, workspaceId, r.prompt_id, r.platform, ms, Math.floor(ms / DAY_MS), r.mentioned ? 1 : 0, r.cited ? 1 : 0, JSON.stringify(r.competitors), JSON.stringify(r.citations), r.answer]);
  }
  await importLines(store, workspaceId, others);
  const { insert } = createSnapshotStatements(store.db);
  const t0 = performance.now();
  await inImportTransaction(store.db, IMPORT_CACHE_SIZE, async () => {
    for (const row of rows) insert.run(...row);
  });
  const wall = (performance.now() - t0) / 1000;
  store.db.close();
  console.log(`${'ceiling (rows only, no import)'.padEnd(30)} ${wall.toFixed(2)} s wall, ${Math.round(snapshots / wall)} snapshot rows/s`);
}

async function main(): Promise<void> {
  const dir = path.join(here, '.data', `import-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    const file = path.join(dir, 'demo.ndjson');
    const { lines, snapshots } = await writeFile(file);
    const store = openSqliteStore(path.join(dir, 'bench.db'));
    const workspaceId = randomUUID();
    await store.accounts.insertWorkspace({ id: workspaceId, name: 'Benchmark', subscription_status: 'active', created_at: new Date().toISOString() });
    const rssBefore = process.memoryUsage().rss;

    // CPU time beside wall time: on a busy machine the wall clock also measures the neighbours.
    const timed = async (label: string, expected: keyof ImportSummary): Promise<void> => {
      const cpu = process.cpuUsage();
      const t0 = performance.now();
      const summary = await importNdjson(store, workspaceId, createReadStream(file));
      const wall = (performance.now() - t0) / 1000;
      const used = process.cpuUsage(cpu);
      const cpuSeconds = (used.user + used.system) / 1e6;
      if (summary[expected] !== lines) throw new Error(`${label}: expected ${lines} ${expected}, got ${JSON.stringify(summary)}`);
      console.log(
        `${label.padEnd(30)} ${wall.toFixed(2)} s wall, ${Math.round(lines / wall)} lines/s; ${cpuSeconds.toFixed(2)} s CPU, ${Math.round(lines / cpuSeconds)} lines per CPU-second`,
      );
    };
    const mb = (bytes: number): string => `${(bytes / 1_048_576).toFixed(0)} MB`;
    console.log(`machine: ${os.cpus().length} cores, node ${process.version}; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    console.log(`file: ${lines} lines (${snapshots} snapshots), ${mb(statSync(file).size)}`);
    await timed('first import (all inserted)', 'inserted');
    await timed('second import (all unchanged)', 'unchanged');
    store.db.close();
    console.log(`RSS before the imports ${mb(rssBefore)}, peak RSS ${mb(process.resourceUsage().maxRSS * 1024)}`);
    await ceiling(file, path.join(dir, 'ceiling.db'), snapshots);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
