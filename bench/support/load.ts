// The load side shared by the HTTP benchmarks: the service in a child process, autocannon runs
// with exact percentiles, and a fresh API key for a dataset.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createApiKey } from '../../src/keys/api-keys.js';
import { openSqliteStore } from '../../src/store/index.js';
import { DATA_DIR, type Dataset } from './prompt-dataset.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** `--name=value` from the command line, or the fallback. */
export const option = (name: string, fallback: string): string =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

/** The middle value (the upper one of an even count): what the benchmarks report of their rounds. */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * A copy of the dataset's file under `bench/.data/NAME.db`, for a second server of its own. A
 * previous run's write-ahead log beside the copy would be replayed over it (and lose keys made
 * since), so it goes first.
 */
export function copyOfDataset(data: Dataset, name: string): string {
  const file = path.join(DATA_DIR, `${name}.db`);
  for (const suffix of ['-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  copyFileSync(data.file, file);
  return file;
}

/** A benchmark server (prompt-servers.ts) in its own process, so load and server do not share an event loop. */
export async function startChild(mode: 'full' | 'bare', data: Dataset): Promise<{ url: string; child: ChildProcess }> {
  return startServerProcess([mode, data.file, data.workspaceId, path.join(DATA_DIR, `${mode}-server.log`)]);
}

/**
 * prompt-servers.ts with these arguments, from this checkout or another one (`checkout`, a
 * directory with its own bench/support/prompt-servers.ts), with extra Node flags and environment.
 */
export async function startServerProcess(args: string[], options: { checkout?: string; nodeFlags?: string[]; env?: Record<string, string> } = {}): Promise<{ url: string; child: ChildProcess }> {
  const script = options.checkout === undefined ? path.join(here, 'prompt-servers.ts') : path.join(options.checkout, 'bench/support/prompt-servers.ts');
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), '--import', 'tsx', script, ...args], {
    cwd: options.checkout,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...options.env, NODE_ENV: 'production' },
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server ${args[0]} exited with ${code}`)));
  });
  return { url: (JSON.parse(first) as { url: string }).url, child };
}

// /proc/<pid>/stat counts CPU time in clock ticks of 10 ms (USER_HZ on Linux).
const TICK_SECONDS = 0.01;

/** CPU seconds (user + system) the process has used so far. */
export function cpuSeconds(child: ChildProcess): number {
  const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_SECONDS;
}

export async function stopChild(child: ChildProcess): Promise<void> {
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

export interface Measurement {
  p50: number;
  p99: number;
  rps: number;
  requests: number;
  errors: number;
}

export function measure(url: string, requestPath: string, headers: Record<string, string>, duration: number, connections: number): Promise<Measurement> {
  return measureAcross([url], requestPath, headers, duration, connections);
}

/**
 * One load spread over several servers, as a round-robin balancer spreads it: the connections
 * shared out among them, one autocannon run each at once, their samples and rates added up.
 */
export async function measureAcross(urls: readonly string[], requestPath: string, headers: Record<string, string>, duration: number, connections: number): Promise<Measurement> {
  const samples: number[] = [];
  let failures = 0;
  const results = await Promise.all(urls.map((url, i) => {
    const share = Math.floor(connections / urls.length) + (i < connections % urls.length ? 1 : 0);
    const run = autocannon({ url: `${url}${requestPath}`, connections: Math.max(1, share), duration, headers });
    run.on('response', (_client, status, _bytes, ms) => {
      if (status === 200) samples.push(ms);
      else failures += 1;
    });
    return run;
  }));
  const sorted = Float64Array.from(samples).sort();
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    rps: results.reduce((n, r) => n + r.requests.average, 0),
    requests: results.reduce((n, r) => n + r.requests.total, 0),
    errors: results.reduce((n, r) => n + r.errors + r.timeouts, 0) + failures,
  };
}

export async function freshKey(data: Dataset): Promise<string> {
  const store = openSqliteStore(data.file);
  try {
    return (await createApiKey(store, { workspaceId: data.workspaceId, userId: data.ownerId, name: `Benchmark ${new Date().toISOString()}` })).key;
  } finally {
    await store.close();
  }
}
