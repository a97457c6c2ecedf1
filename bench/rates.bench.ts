// Workspace-wide rates against one prompt's analytics, on a workspace of 500 prompts and
// 1,000,000 answers, through the full service. Target (issue 4): the workspace rates answer
// within 2 × the latency of one prompt's analytics (p50 and p99, range by range), because both
// read one rollup row per day and platform. Share of voice is measured alongside.
// Options: --duration=SECONDS (10) --connections=N (10).
import { cpus, totalmem } from 'node:os';
import { dataset } from './support/prompt-dataset.js';
import { freshKey, measure, option, startChild, stopChild, type Measurement } from './support/load.js';
import { LARGE_WORKSPACE } from './support/visibility-dataset.js';

const DURATION = Number(option('duration', '10'));
const CONNECTIONS = Number(option('connections', '10'));
const RANGES = ['7d', '30d', '90d'] as const;

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`);
console.log(`load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per case, loopback, server in its own process\n`);

const data = await dataset(LARGE_WORKSPACE, (line) => console.log(line));
const key = await freshKey(data);
const headers = { authorization: `Bearer ${key}` };
const cases = RANGES.flatMap((range) => [
  { name: `prompt analytics ${range}`, path: `/api/v1/visibility/prompts/${data.promptId}?range=${range}` },
  { name: `workspace rates ${range}`, path: `/api/v1/visibility/rates?range=${range}` },
  { name: `competitors ${range}`, path: `/api/v1/visibility/competitors?range=${range}` },
]);

const results = new Map<string, Measurement>();
const { url, child } = await startChild('full', data);
try {
  for (const c of cases) {
    await measure(url, c.path, headers, 1, CONNECTIONS); // warm-up: JIT, page cache, prepared statements
    const m = await measure(url, c.path, headers, DURATION, CONNECTIONS);
    results.set(c.name, m);
    console.log(`${c.name.padEnd(22)}  p50 ${m.p50.toFixed(2).padStart(6)} ms  p99 ${m.p99.toFixed(2).padStart(6)} ms  ${Math.round(m.rps).toString().padStart(6)} req/s  ${m.errors === 0 ? '' : `${m.errors} ERRORS`}`);
  }
} finally {
  await stopChild(child);
}

let failed = [...results.values()].some((m) => m.errors > 0);
console.log(`\ntargets (${LARGE_WORKSPACE.prompts} prompts, ${LARGE_WORKSPACE.snapshots.toLocaleString('en-US')} answers)`);
for (const range of RANGES) {
  const prompt = results.get(`prompt analytics ${range}`)!;
  const rates = results.get(`workspace rates ${range}`)!;
  for (const p of ['p50', 'p99'] as const) {
    const ratio = rates[p] / prompt[p];
    const ok = ratio <= 2;
    failed ||= !ok;
    console.log(`  rates ${range} ${p}: ${rates[p].toFixed(2)} ms / prompt analytics ${prompt[p].toFixed(2)} ms = ${ratio.toFixed(2)} (≤ 2.00) ${ok ? 'ok' : 'MISSED'}`);
  }
}
process.exit(failed ? 1 : 0);
