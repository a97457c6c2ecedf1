// Prompt analytics and the prompt list, at 10,000 and 1,000,000 snapshots, through the full
// service and through a bare node:http server running the same store and analytics code (the
// ceiling). Targets (issue 3): p99 at 1M ≤ 1.5 × p99 at 10k; full-stack requests/s ≥ 10% of
// the bare ceiling. Options: --duration=SECONDS (10) --connections=N (10) --sizes=10000,1000000.
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createApiKey } from '../src/keys/api-keys.js';
import { openDatabase } from '../src/store/database.js';
import { createStore } from '../src/store/index.js';
import { DATA_DIR, dataset, type Dataset, type DatasetShape } from './support/prompt-dataset.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const option = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const DURATION = Number(option('duration', '10'));
const CONNECTIONS = Number(option('connections', '10'));
const SIZES = option('sizes', '10000,1000000').split(',').map(Number);

// Same shape of workspace at both sizes; the larger one has more prompts, a longer history and
// more answers a day, so a request that grew with any of them would show it.
const SHAPES: Record<number, DatasetShape> = {
  10_000: { snapshots: 10_000, prompts: 12, days: 180 },
  1_000_000: { snapshots: 1_000_000, prompts: 40, days: 730 },
};

interface CaseResult {
  size: number;
  server: 'full' | 'bare';
  name: string;
  p50: number;
  p99: number;
  rps: number;
  requests: number;
  errors: number;
}

const CASES = (promptId: string) => [
  { name: 'analytics 7d', path: `/api/v1/visibility/prompts/${promptId}?range=7d` },
  { name: 'analytics 30d', path: `/api/v1/visibility/prompts/${promptId}?range=30d` },
  { name: 'analytics 90d', path: `/api/v1/visibility/prompts/${promptId}?range=90d` },
  { name: 'prompt list', path: '/api/v1/visibility/prompts?limit=25' },
];

async function startChild(mode: 'full' | 'bare', data: Dataset): Promise<{ url: string; child: ChildProcess }> {
  const logFile = path.join(DATA_DIR, `${mode}-server.log`);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'support', 'prompt-servers.ts'), mode, data.file, data.workspaceId, logFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  return { url: (JSON.parse(first) as { url: string }).url, child };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

// autocannon's own histogram counts whole milliseconds; its response event carries the exact
// time, so percentiles are taken from every sample at microsecond resolution.
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(url: string, requestPath: string, headers: Record<string, string>, duration: number) {
  const samples: number[] = [];
  let failures = 0;
  const run = autocannon({ url: `${url}${requestPath}`, connections: CONNECTIONS, duration, headers });
  run.on('response', (_client, status, _bytes, ms) => {
    if (status === 200) samples.push(ms);
    else failures += 1;
  });
  const result = await run;
  const sorted = Float64Array.from(samples).sort();
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    rps: result.requests.average,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + failures,
  };
}

function freshKey(data: Dataset): string {
  const store = createStore(openDatabase(data.file));
  try {
    return createApiKey(store, { workspaceId: data.workspaceId, userId: data.ownerId, name: `Benchmark ${new Date().toISOString()}` }).key;
  } finally {
    store.db.close();
  }
}

const log = (line: string) => console.log(line);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`);
console.log(`load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per case, loopback, server in its own process\n`);

const results: CaseResult[] = [];
for (const size of SIZES) {
  const shape = SHAPES[size] ?? { snapshots: size, prompts: 40, days: 365 };
  const data = await dataset(shape, log);
  const key = freshKey(data);
  for (const mode of ['full', 'bare'] as const) {
    const { url, child } = await startChild(mode, data);
    try {
      const headers: Record<string, string> = mode === 'full' ? { authorization: `Bearer ${key}` } : {};
      for (const c of CASES(data.promptId)) {
        await measure(url, c.path, headers, 1); // warm-up: JIT, page cache, prepared statements
        const m = await measure(url, c.path, headers, DURATION);
        results.push({ size, server: mode, name: c.name, ...m });
        console.log(`${size.toLocaleString('en-US').padStart(9)}  ${mode.padEnd(4)}  ${c.name.padEnd(13)}  p50 ${m.p50.toFixed(2).padStart(6)} ms  p99 ${m.p99.toFixed(2).padStart(6)} ms  ${Math.round(m.rps).toString().padStart(6)} req/s  ${m.errors === 0 ? '' : `${m.errors} ERRORS`}`);
      }
    } finally {
      await stopChild(child);
    }
  }
}

// The targets, case by case.
let failed = false;
const find = (size: number, server: 'full' | 'bare', name: string) => results.find((r) => r.size === size && r.server === server && r.name === name);
const [small, large] = [Math.min(...SIZES), Math.max(...SIZES)];
console.log('\ntargets');
for (const { name } of CASES('')) {
  const s = find(small, 'full', name);
  const l = find(large, 'full', name);
  if (s && l && small !== large) {
    const ratio = l.p99 / s.p99;
    const ok = ratio <= 1.5;
    failed ||= !ok;
    console.log(`  ${name.padEnd(13)}  p99 ${large.toLocaleString('en-US')} / ${small.toLocaleString('en-US')} = ${l.p99.toFixed(2)} / ${s.p99.toFixed(2)} ms = ${ratio.toFixed(2)} (≤ 1.50) ${ok ? 'ok' : 'MISSED'}`);
  }
  for (const size of SIZES) {
    const f = find(size, 'full', name);
    const b = find(size, 'bare', name);
    if (!f || !b) continue;
    const share = f.rps / b.rps;
    const ok = share >= 0.1;
    failed ||= !ok;
    console.log(`  ${name.padEnd(13)}  ${size.toLocaleString('en-US').padStart(9)}: full ${Math.round(f.rps)} req/s = ${(share * 100).toFixed(1)}% of bare ${Math.round(b.rps)} (≥ 10%) ${ok ? 'ok' : 'MISSED'}`);
  }
}
if (results.some((r) => r.errors > 0)) {
  failed = true;
  console.log('  some requests failed (non-2xx, errors or timeouts): the figures above do not count');
}
process.exit(failed ? 1 : 0);
