// Prompt analytics and the prompt list on PostgreSQL, at 10,000 and 1,000,000 snapshots: the
// store and analytics code the handlers run (readPromptAnalytics, readPromptList over the
// PostgreSQL prompt and analytics areas), called in process by concurrent callers, each call timed.
// Target: p99 at 1M ≤ 1.5 × p99 at 10k. The datasets are prompt-analytics.bench.ts's (built
// through the import into SQLite, cached), copied row for row into a fresh database of a
// throwaway cluster, then ANALYZEd as autovacuum would.
// Options: --duration=SECONDS (10) --connections=N (10) --sizes=10000,1000000 --explain (print
// the plan of every statement of one call of each case, with the indexes it used).
import { randomBytes } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { readPromptAnalytics, readPromptList, type PromptReadStores } from '../src/analytics/prompt-reads.js';
import type { RangeValue } from '../src/analytics/periods.js';
import { openSqliteStore } from '../src/store/index.js';
import { applyPostgresMigrations } from '../src/store/postgres/migrate.js';
import { createPostgresPool, type PostgresPool } from '../src/store/postgres/pool.js';
import { createPostgresPromptStore } from '../src/store/postgres/prompts.js';
import { createPostgresVisibilityAnalyticsStore } from '../src/store/postgres/visibility-analytics.js';
import { startPostgresCluster } from '../scripts/postgres-cluster.js';
import { copySqliteToPostgres } from '../test/support/copy-sqlite-to-postgres.js';
import { plansOf } from '../test/support/postgres-plans.js';
import { dataset, type Dataset, type DatasetShape } from './support/prompt-dataset.js';
import { Cursors } from '../src/pagination/cursor.js';

const CURSORS = new Cursors(randomBytes(32).toString('base64url'));

const option = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const DURATION = Number(option('duration', '10'));
const CONNECTIONS = Number(option('connections', '10'));
const SIZES = option('sizes', '10000,1000000').split(',').map(Number);
const EXPLAIN = process.argv.includes('--explain');
const ROUNDS = 5;

// The shapes of prompt-analytics.bench.ts: the same payloads at both sizes, a hundredfold history.
const SHAPES: Record<number, DatasetShape> = {
  10_000: { snapshots: 10_000, prompts: 40, days: 90 },
  1_000_000: { snapshots: 1_000_000, prompts: 40, days: 730 },
};

type Case = { name: string; call: (stores: PromptReadStores, data: Dataset) => Promise<unknown> };
const analytics = (range: RangeValue): Case => ({
  name: `analytics ${range}`,
  call: (stores, data) => readPromptAnalytics(stores, { workspaceId: data.workspaceId, promptId: data.promptId, range, alpha: 0.05, now: new Date() }),
});
const CASES: Case[] = [
  analytics('7d'),
  analytics('30d'),
  analytics('90d'),
  { name: 'prompt list', call: (stores, data) => readPromptList(stores, CURSORS, { workspaceId: data.workspaceId, range: '30d', alpha: 0.05, limit: 25, order: 'created_at', now: new Date() }) },
];

interface Result {
  size: number;
  name: string;
  p50: number;
  p99: number;
  perSecond: number;
}

/** `CONNECTIONS` callers calling `call` back to back for `seconds`; every call's time. */
async function load(call: () => Promise<unknown>, seconds: number): Promise<{ times: number[]; elapsed: number }> {
  const times: number[] = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await call();
        times.push(performance.now() - t);
      }
    }),
  );
  return { times, elapsed: (performance.now() - started) / 1000 };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}`);
console.log(`load: ${CONNECTIONS} concurrent callers in process, ${DURATION} s per case and size in ${ROUNDS} turns after 1 s of warm-up, pool of 10 connections, PostgreSQL on loopback\n`);

const cluster = await startPostgresCluster();
const results: Result[] = [];
const prepared: Array<{ size: number; data: Dataset; pool: PostgresPool; stores: PromptReadStores }> = [];
try {
  for (const size of SIZES) {
    const data = await dataset(SHAPES[size] ?? { snapshots: size, prompts: 40, days: 365 }, (line) => console.log(line));
    const name = `bench_prompts_${size}`;
    const admin = createPostgresPool(cluster.url());
    await admin.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
    await admin.end();
    const pool: PostgresPool = createPostgresPool(cluster.url(name));
    await applyPostgresMigrations(pool);
    const sqlite = openSqliteStore(data.file);
    const copyStarted = performance.now();
    await copySqliteToPostgres(sqlite.db, pool);
    await sqlite.close();
    await pool.query('ANALYZE');
    console.log(`${size.toLocaleString('en-US')} snapshots copied into PostgreSQL and analyzed in ${((performance.now() - copyStarted) / 1000).toFixed(1)} s`);
    prepared.push({ size, data, pool, stores: { prompts: createPostgresPromptStore(pool), visibilityAnalytics: createPostgresVisibilityAnalyticsStore(pool) } });
    if (EXPLAIN) {
      for (const c of CASES) {
        console.log(`\n--- plans of one call: ${c.name}, ${size.toLocaleString('en-US')} snapshots`);
        const plans = await plansOf(cluster.url(name), (db) => c.call({ prompts: createPostgresPromptStore(db), visibilityAnalytics: createPostgresVisibilityAnalyticsStore(db) }, data));
        for (const plan of plans) console.log(plan);
      }
    }
  }
  // The sizes take turns, ROUNDS times per case, and each size's calls are pooled: a machine whose
  // load drifts during the run (it is shared) weighs on every size alike.
  console.log('');
  for (const c of CASES) {
    const times = new Map<number, { all: number[]; elapsed: number }>(prepared.map((p) => [p.size, { all: [], elapsed: 0 }]));
    for (const p of prepared) await load(() => c.call(p.stores, p.data), 1);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const p of prepared) {
        const { times: t, elapsed } = await load(() => c.call(p.stores, p.data), DURATION / ROUNDS);
        const pooled = times.get(p.size)!;
        pooled.all.push(...t);
        pooled.elapsed += elapsed;
      }
    }
    for (const p of prepared) {
      const { all, elapsed } = times.get(p.size)!;
      const sorted = all.sort((a, b) => a - b);
      const r = { size: p.size, name: c.name, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), perSecond: all.length / elapsed };
      results.push(r);
      console.log(`${p.size.toLocaleString('en-US').padStart(9)}  ${c.name.padEnd(13)}  p50 ${r.p50.toFixed(2).padStart(6)} ms  p99 ${r.p99.toFixed(2).padStart(6)} ms  ${Math.round(r.perSecond).toString().padStart(6)} calls/s`);
    }
  }
} finally {
  for (const p of prepared) await p.pool.end();
  cluster.stop();
}

let failed = false;
const [small, large] = [Math.min(...SIZES), Math.max(...SIZES)];
if (small !== large) {
  console.log('\ntargets');
  for (const { name } of CASES) {
    const s = results.find((r) => r.size === small && r.name === name)!;
    const l = results.find((r) => r.size === large && r.name === name)!;
    const ratio = l.p99 / s.p99;
    failed ||= ratio > 1.5;
    console.log(`  ${name.padEnd(13)}  p99 ${large.toLocaleString('en-US')} / ${small.toLocaleString('en-US')} = ${l.p99.toFixed(2)} / ${s.p99.toFixed(2)} ms = ${ratio.toFixed(2)} (≤ 1.50) ${ratio <= 1.5 ? 'ok' : 'MISSED'}`);
  }
}
process.exit(failed ? 1 : 0);
