// Exports 1,000,000 answers over HTTP from the full service in its own process, as NDJSON and as
// CSV, and samples that process's resident memory from outside (/proc/PID/status) while it
// streams. Target (issue 4): RSS growth during an export stays under 100 MB.
// Options: --sample-ms=N (50).
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dataset } from './support/prompt-dataset.js';
import { freshKey, option, startChild, stopChild } from './support/load.js';
import { LARGE_WORKSPACE } from './support/visibility-dataset.js';

const SAMPLE_MS = Number(option('sample-ms', '50'));
const LIMIT_MB = 100;
const MB = 2 ** 20;

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status);
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb[1]) * 1024;
}

/** Downloads the export, counting lines and bytes without keeping them; the server's RSS is sampled meanwhile. */
async function download(url: string, key: string, pid: number): Promise<{ lines: number; bytes: number; seconds: number; peakRss: number; status: number }> {
  let peakRss = rssOf(pid);
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, rssOf(pid));
  }, SAMPLE_MS);
  const started = performance.now();
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    let lines = 0;
    let bytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines += 1;
    }
    return { lines, bytes, seconds: (performance.now() - started) / 1000, peakRss: Math.max(peakRss, rssOf(pid)), status: res.status };
  } finally {
    clearInterval(timer);
  }
}

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}\n`);
const data = await dataset(LARGE_WORKSPACE, (line) => console.log(line));
const key = await freshKey(data);
const { url, child } = await startChild('full', data);
let failed = false;
try {
  const pid = child.pid!;
  // Warm-up: the first export compiles the code paths and fills SQLite's page cache.
  await download(`${url}/api/v1/visibility/exports/answers.ndjson?range=7d`, key, pid);
  for (const format of ['ndjson', 'csv'] as const) {
    const baseline = rssOf(pid);
    const r = await download(`${url}/api/v1/visibility/exports/answers${format === 'csv' ? '' : '.ndjson'}?range=90d`, key, pid);
    const answers = format === 'csv' ? r.lines - 1 : r.lines; // CSV: header row; answers contain no LF in this dataset
    const growth = (r.peakRss - baseline) / MB;
    const ok = r.status === 200 && answers === LARGE_WORKSPACE.snapshots && growth < LIMIT_MB;
    failed ||= !ok;
    console.log(
      `${format.padEnd(6)}  ${answers.toLocaleString('en-US')} answers, ${(r.bytes / MB).toFixed(0)} MB in ${r.seconds.toFixed(1)} s `
      + `(${Math.round(answers / r.seconds).toLocaleString('en-US')} answers/s); server RSS ${(baseline / MB).toFixed(0)} MB before, `
      + `peak ${(r.peakRss / MB).toFixed(0)} MB: growth ${growth.toFixed(1)} MB (< ${LIMIT_MB}) ${ok ? 'ok' : 'MISSED'}`,
    );
  }
} finally {
  await stopChild(child);
}
process.exit(failed ? 1 : 0);
