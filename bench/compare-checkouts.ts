// Full-stack prompt analytics and prompt list, side by side, for two checkouts of this repository
// (say the commit before a change and the change): each serves its own copy of the same 10k
// dataset through `startServer` in its own process, and autocannon measures them in alternating
// rounds, so load from the rest of the machine falls on both alike. Prints, per case, the median
// requests/s and, steadier on a shared machine, the median requests per second of the server
// process's own CPU time (user + system, from /proc): what one core serves when nothing else runs.
// Not part of `npm run bench` (it needs a second checkout):
//   git archive <commit> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/node_modules
//   npx tsx bench/compare-checkouts.ts /tmp/before . [--rounds=5] [--duration=10]
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { DATA_DIR, dataset } from './support/prompt-dataset.js';
import { copyOfDataset, cpuSeconds, freshKey, measure, median, option, startServerProcess, stopChild } from './support/load.js';

const [beforeDir, afterDir] = process.argv.slice(2).filter((a) => !a.startsWith('--')) as [string, string];
const ROUNDS = Number(option('rounds', '5'));
const DURATION = Number(option('duration', '10'));
const CONNECTIONS = 10;

const data = await dataset({ snapshots: 10_000, prompts: 40, days: 90 }, console.log);

/** The full service of the checkout in `dir`, over a copy of the dataset of its own. */
async function serve(dir: string, name: string): Promise<{ url: string; child: ChildProcess; key: string }> {
  const file = copyOfDataset(data, `compare-${name}`);
  const key = await freshKey({ ...data, file });
  const { url, child } = await startServerProcess(['full', file, data.workspaceId, path.join(DATA_DIR, `compare-${name}.log`)], { checkout: dir });
  return { url, child, key };
}

const servers = { before: await serve(path.resolve(beforeDir), 'before'), after: await serve(path.resolve(afterDir), 'after') };
const CASES = [
  { name: 'analytics 7d', path: `/api/v1/visibility/prompts/${data.promptId}?range=7d` },
  { name: 'analytics 30d', path: `/api/v1/visibility/prompts/${data.promptId}?range=30d` },
  { name: 'analytics 90d', path: `/api/v1/visibility/prompts/${data.promptId}?range=90d` },
  { name: 'prompt list', path: '/api/v1/visibility/prompts?limit=25' },
];

console.log(`${ROUNDS} alternating rounds of ${DURATION} s per case and checkout, ${CONNECTIONS} connections, loopback`);
try {
  // Warm-up: JIT, page cache, prepared statements.
  for (const s of Object.values(servers)) for (const c of CASES) await measure(s.url, c.path, { authorization: `Bearer ${s.key}` }, 2, CONNECTIONS);
  for (const c of CASES) {
    const rps = { before: [] as number[], after: [] as number[] };
    const perCpu = { before: [] as number[], after: [] as number[] };
    const p99 = { before: [] as number[], after: [] as number[] };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const which of round % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const)) {
        const s = servers[which];
        const cpuBefore = cpuSeconds(s.child);
        const m = await measure(s.url, c.path, { authorization: `Bearer ${s.key}` }, DURATION, CONNECTIONS);
        if (m.errors > 0) throw new Error(`${which}, ${c.name}: ${m.errors} errors`);
        rps[which].push(m.rps);
        perCpu[which].push(m.requests / (cpuSeconds(s.child) - cpuBefore));
        p99[which].push(m.p99);
      }
    }
    const [b, a] = [median(rps.before), median(rps.after)];
    const [bc, ac] = [median(perCpu.before), median(perCpu.after)];
    console.log(`${c.name.padEnd(14)} req/s ${Math.round(b)} → ${Math.round(a)} (${(a / b).toFixed(3)}), p99 ${median(p99.before).toFixed(2)} → ${median(p99.after).toFixed(2)} ms`
      + ` | req per CPU-s ${Math.round(bc)} → ${Math.round(ac)} (${(ac / bc).toFixed(3)}) | rounds ${perCpu.before.map(Math.round).join(' ')} / ${perCpu.after.map(Math.round).join(' ')}`);
  }
} finally {
  for (const s of Object.values(servers)) await stopChild(s.child);
}
