// What the significance of a rate change adds to a request: the time of one significanceOf call
// at the sizes the analytics meet (Fisher's exact test up to 999 snapshots in both periods, where
// it sums the most terms, and the z-test above), and of the 200 calls a full page of 100 prompts
// makes (a mention and a citation test per prompt). Options: --iterations=N (20000).
import { cpus, totalmem } from 'node:os';
import { significanceOf } from '../src/analytics/significance.js';
import { option } from './support/load.js';

const ITERATIONS = Number(option('iterations', '20000'));

const CASES = [
  { name: 'Fisher, 7 + 7 snapshots', current: { hits: 4, total: 7 }, previous: { hits: 1, total: 7 } },
  { name: 'Fisher, 90 + 90', current: { hits: 50, total: 90 }, previous: { hits: 40, total: 90 } },
  { name: 'Fisher, 540 + 450 (90d, 6 platforms)', current: { hits: 270, total: 540 }, previous: { hits: 200, total: 450 } },
  { name: 'Fisher, 500 + 499 (most terms)', current: { hits: 250, total: 500 }, previous: { hits: 249, total: 499 } },
  { name: 'z-test, 500 + 500', current: { hits: 130, total: 500 }, previous: { hits: 100, total: 500 } },
  { name: 'z-test, 1,000,000 + 1,000,000', current: { hits: 412_345, total: 1_000_000 }, previous: { hits: 410_000, total: 1_000_000 } },
];

/** Microseconds per call: the median of five timed runs of ITERATIONS calls, after a warm-up run. */
function perCall(run: () => unknown): number {
  const times: number[] = [];
  for (let round = 0; round < 6; round += 1) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < ITERATIONS; i += 1) run();
    if (round > 0) times.push(Number(process.hrtime.bigint() - start) / 1000 / ITERATIONS);
  }
  return times.sort((a, b) => a - b)[2]!;
}

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`);
console.log(`${ITERATIONS} calls per timed run, median of 5 runs\n`);
console.log('| case | µs per call | a page of 100 prompts (200 calls) |');
console.log('|---|---|---|');
for (const c of CASES) {
  const us = perCall(() => significanceOf(c.current, c.previous, 0.05));
  console.log(`| ${c.name} | ${us.toFixed(2)} | ${((us * 200) / 1000).toFixed(3)} ms |`);
}
