// Prompt analytics and the prompt list, at 10,000 and 1,000,000 snapshots, through the full
// service and through a bare node:http server running the same store and analytics code (the
// ceiling). Targets (issue 3): p99 at 1M ≤ 1.5 × p99 at 10k; full-stack requests/s ≥ 10% of
// the bare ceiling. Options: --duration=SECONDS (10) --connections=N (10) --sizes=10000,1000000.
import { cpus, totalmem } from 'node:os';
import { dataset, type DatasetShape } from './support/prompt-dataset.js';
import { freshKey, measure as measureWith, option, startChild, stopChild, type Measurement } from './support/load.js';

const DURATION = Number(option('duration', '10'));
const CONNECTIONS = Number(option('connections', '10'));
const SIZES = option('sizes', '10000,1000000').split(',').map(Number);
const measure = (url: string, requestPath: string, headers: Record<string, string>, duration: number) =>
  measureWith(url, requestPath, headers, duration, CONNECTIONS);

// The same workspace (40 prompts, 6 platforms, 8 competitors) at both sizes: 10k is ninety days
// of about three answers a day per prompt (one every other day per platform), 1M is two years of
// about six a day per prompt and platform. The requests compare like with like (a full page of 25
// prompts, the same prompt, a trend with a point on nearly every day at both sizes), while
// history, answers per day and the database grow a hundredfold: a request whose cost followed any
// of them would show it.
const SHAPES: Record<number, DatasetShape> = {
  10_000: { snapshots: 10_000, prompts: 40, days: 90 },
  1_000_000: { snapshots: 1_000_000, prompts: 40, days: 730 },
};

interface CaseResult extends Measurement {
  size: number;
  server: 'full' | 'bare';
  name: string;
}

const CASES = (promptId: string) => [
  { name: 'analytics 7d', path: `/api/v1/visibility/prompts/${promptId}?range=7d` },
  { name: 'analytics 30d', path: `/api/v1/visibility/prompts/${promptId}?range=30d` },
  { name: 'analytics 90d', path: `/api/v1/visibility/prompts/${promptId}?range=90d` },
  { name: 'prompt list', path: '/api/v1/visibility/prompts?limit=25' },
];

const log = (line: string) => console.log(line);
console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`);
console.log(`load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per case, loopback, server in its own process\n`);

const results: CaseResult[] = [];
for (const size of SIZES) {
  const shape = SHAPES[size] ?? { snapshots: size, prompts: 40, days: 365 };
  const data = await dataset(shape, log);
  const key = await freshKey(data);
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
