// CPU profiles of the full service under the load of bench/stack-cost.bench.ts, one per case
// (`/me`, a prompt's 90-day analytics, a prompt-list page), taken over the measured load only
// (support/profile-window.mjs), and summarised by package and by module of this service in CPU
// µs per request (support/cpu-profile-summary.ts). With `--before=DIR` the same for another
// checkout of this repository, over a copy of the same file, to see what a change moved.
// Not part of `npm run bench` (profiling slows the server):
//   npx tsx bench/profile-stack.ts [--duration=10] [--top=20] [--before=DIR]
// Profiles are kept under bench/.data/profiles/ for Chrome DevTools or speedscope.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { DATA_DIR, dataset } from './support/prompt-dataset.js';
import { copyOfDataset, freshKey, measure, option, startServerProcess, stopChild } from './support/load.js';
import { comparisonLines, summaryLines } from './support/cpu-profile-summary.js';

const DURATION = Number(option('duration', '10'));
const TOP = Number(option('top', '20'));
const BEFORE = option('before', '');
const CONNECTIONS = 10;
const PRELOAD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support', 'profile-window.mjs');
const OUT = path.join(DATA_DIR, 'profiles');
mkdirSync(OUT, { recursive: true });

const data = await dataset({ snapshots: 10_000, prompts: 40, days: 90 }, console.log);
const key = await freshKey(data);
const auth = { authorization: `Bearer ${key}` };
const CASES = [
  { name: 'me', path: '/api/v1/me' },
  { name: 'analytics-90d', path: `/api/v1/visibility/prompts/${data.promptId}?range=90d` },
  { name: 'prompt-list', path: '/api/v1/visibility/prompts?limit=25' },
];

const checkouts: Array<{ name: string; dir?: string; file: string }> = [{ name: 'this', file: data.file }];
if (BEFORE !== '') {
  checkouts.unshift({ name: 'before', dir: path.resolve(BEFORE), file: copyOfDataset(data, 'profile-before') });
}

for (const c of CASES) {
  const profiled: Array<{ file: string; requests: number }> = [];
  for (const checkout of checkouts) {
    const profile = path.join(OUT, `${c.name}-${checkout.name}.cpuprofile`);
    rmSync(profile, { force: true });
    const server = await startServerProcess(['full', checkout.file, data.workspaceId, path.join(DATA_DIR, `profile-${checkout.name}.log`)], {
      checkout: checkout.dir,
      nodeFlags: ['--import', PRELOAD],
      env: { BENCH_CPU_PROFILE: profile },
    });
    try {
      await measure(server.url, c.path, auth, 2, CONNECTIONS); // warm-up: JIT, page cache, compiled schemas
      server.child.kill('SIGUSR2');
      await sleep(200);
      const m = await measure(server.url, c.path, auth, DURATION, CONNECTIONS);
      if (m.errors > 0) throw new Error(`${c.name} (${checkout.name}): ${m.errors} failed requests`);
      server.child.kill('SIGUSR2');
      while (!existsSync(profile)) await sleep(100);
      console.log(`\n### ${c.path.replace(data.promptId, '{prompt_id}')} (${checkout.name}), ${Math.round(m.rps)} req/s under the profiler\n`);
      for (const line of summaryLines(profile, m.requests, TOP)) console.log(line);
      profiled.push({ file: profile, requests: m.requests });
    } finally {
      await stopChild(server.child);
    }
  }
  if (profiled.length === 2) {
    console.log(`\n### ${c.path.replace(data.promptId, '{prompt_id}')}: before and this checkout\n`);
    for (const line of comparisonLines(profiled[0]!, profiled[1]!, TOP)) console.log(line);
  }
}
