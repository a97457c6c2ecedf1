// What the stack costs per request: `/me`, a prompt's 90-day analytics and a prompt-list page,
// each served by four servers in their own processes, measured in alternating rounds so load from
// the rest of the machine falls on all alike:
// - bytes: bare node:http answering the exact bytes and content type the full service answered
//   (captured first, without Accept-Encoding, as autocannon asks): the machine's HTTP ceiling;
// - same SQL: bare node:http running the same store and analytics code for the route, nothing else;
// - full: the service as `startServer` builds it, every middleware on (validation, dispatch,
//   authentication, the workspace limiter with its quota raised by RATE_LIMIT_QUOTA, usage
//   counting, request logging to a file), on the embedded SQLite store;
// - before (with `--before=DIR`): the full service of another checkout of this repository, over a
//   copy of the same file, to compare a change with the commit it starts from in the same run;
// - full on PostgreSQL (with `--postgres`): the same service over a copy of the data in a
//   throwaway cluster (`DATABASE_URL`), for the figures beside the embedded default.
// The per-request overhead of the stack is 1 / full − 1 / same SQL, in µs per request, from the
// requests per second and, steadier on a shared machine, from the requests per CPU-second of each
// server process.
// Options: --duration=SECONDS (5) --rounds=N (3) --connections=N (10) --before=DIR --postgres.
// Figures and profiles: bench/README.md, "The stack's cost".
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { DATA_DIR, dataset } from './support/prompt-dataset.js';
import { copyOfDataset, cpuSeconds, freshKey, measure, median, option, startServerProcess, stopChild } from './support/load.js';
import type { ChildProcess } from 'node:child_process';
import { startPostgresCluster, type PostgresCluster } from '../scripts/postgres-cluster.js';
import { copySqliteToPostgres } from '../src/store/postgres/copy-from-sqlite.js';
import { createPostgresPool } from '../src/store/postgres/pool.js';

const DURATION = Number(option('duration', '5'));
const ROUNDS = Number(option('rounds', '3'));
const CONNECTIONS = Number(option('connections', '10'));
const BEFORE = option('before', '');
const POSTGRES = process.argv.includes('--postgres');

const data = await dataset({ snapshots: 10_000, prompts: 40, days: 90 }, console.log);
const CASES = [
  { name: '/me', path: '/api/v1/me' },
  { name: 'analytics 90d', path: `/api/v1/visibility/prompts/${data.promptId}?range=90d` },
  { name: 'prompt list', path: '/api/v1/visibility/prompts?limit=25' },
];
const key = await freshKey(data);
const auth = { authorization: `Bearer ${key}` };

/** The status, content type and exact bytes of one answer, asked for as autocannon asks (no Accept-Encoding). */
function capture(url: string, requestPath: string): Promise<{ contentType: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(`${url}${requestPath}`, { headers: auth }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`${requestPath}: status ${res.statusCode}`));
        else resolve({ contentType: String(res.headers['content-type']), body: Buffer.concat(chunks) });
      });
    }).on('error', reject);
  });
}

type ServerName = 'bytes' | 'same SQL' | 'full' | 'before' | 'full (PostgreSQL)';

/**
 * A database of `cluster` holding the dataset (the key made above included), moved there as a
 * deployment moves, by `store copy` (src/store/postgres/copy-from-sqlite.ts), then analyzed as
 * autovacuum would.
 */
async function postgresCopy(cluster: PostgresCluster): Promise<string> {
  const admin = createPostgresPool(cluster.url());
  try {
    await admin.query("CREATE DATABASE stack_cost TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'");
  } finally {
    await admin.end();
  }
  await copySqliteToPostgres(data.file, cluster.url('stack_cost'));
  const pool = createPostgresPool(cluster.url('stack_cost'));
  try {
    await pool.query('ANALYZE');
  } finally {
    await pool.end();
  }
  return cluster.url('stack_cost');
}

const servers = new Map<ServerName, { url: string; child: ChildProcess }>();
const log = (name: string) => path.join(DATA_DIR, `stack-cost-${name}.log`);
let cluster: PostgresCluster | undefined;
try {
  servers.set('full', await startServerProcess(['full', data.file, data.workspaceId, log('full')]));
  servers.set('same SQL', await startServerProcess(['bare', data.file, data.workspaceId, log('bare')]));
  const answers: Record<string, { contentType: string; body: string }> = {};
  for (const c of CASES) {
    const answer = await capture(servers.get('full')!.url, c.path);
    answers[c.path] = { contentType: answer.contentType, body: answer.body.toString('base64') };
  }
  const answersFile = path.join(DATA_DIR, 'stack-cost-answers.json');
  writeFileSync(answersFile, JSON.stringify(answers));
  servers.set('bytes', await startServerProcess(['bytes', answersFile]));
  if (BEFORE !== '') {
    servers.set('before', await startServerProcess(['full', copyOfDataset(data, 'stack-cost-before'), data.workspaceId, log('before')], { checkout: path.resolve(BEFORE) }));
  }
  if (POSTGRES) {
    cluster = await startPostgresCluster();
    const env = { DATABASE_URL: await postgresCopy(cluster) };
    servers.set('full (PostgreSQL)', await startServerProcess(['full', data.file, data.workspaceId, log('postgres')], { env }));
  }

  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load average ${loadavg()[0]!.toFixed(2)}`);
  console.log(`${ROUNDS} alternating rounds of ${DURATION} s per case and server, ${CONNECTIONS} connections, loopback; medians of the rounds\n`);
  const names = [...servers.keys()];
  for (const name of names) for (const c of CASES) await measure(servers.get(name)!.url, c.path, auth, 1, CONNECTIONS); // warm-up

  const rows: string[] = [];
  for (const c of CASES) {
    const figures = new Map(names.map((n) => [n, { rps: [] as number[], p99: [] as number[], perCpu: [] as number[] }]));
    for (let round = 0; round < ROUNDS; round += 1) {
      // Each round starts with the next server, so none is always measured first.
      const order = names.map((_, i) => names[(i + round) % names.length]!);
      for (const name of order) {
        const server = servers.get(name)!;
        const cpuBefore = cpuSeconds(server.child);
        const m = await measure(server.url, c.path, auth, DURATION, CONNECTIONS);
        if (m.errors > 0) throw new Error(`${name}, ${c.name}: ${m.errors} failed requests`);
        const f = figures.get(name)!;
        f.rps.push(m.rps);
        f.p99.push(m.p99);
        f.perCpu.push(m.requests / (cpuSeconds(server.child) - cpuBefore));
      }
    }
    const rps = (n: ServerName) => median(figures.get(n)!.rps);
    const overheadUs = (n: ServerName) => 1e6 / rps(n) - 1e6 / rps('same SQL');
    // The same in CPU time of the server process: steadier when other work shares the machine.
    const perCpu = (n: ServerName) => median(figures.get(n)!.perCpu);
    const cpuOverheadUs = (n: ServerName) => 1e6 / perCpu(n) - 1e6 / perCpu('same SQL');
    for (const n of names) {
      const f = figures.get(n)!;
      console.log(`${c.name.padEnd(14)} ${n.padEnd(9)} ${Math.round(rps(n)).toString().padStart(6)} req/s  p99 ${median(f.p99).toFixed(2).padStart(6)} ms`
        + `  ${Math.round(median(f.perCpu)).toString().padStart(6)} req per CPU-s  ${(100 * rps(n) / rps('bytes')).toFixed(1).padStart(5)} % of bytes`
        + (n === 'full' || n === 'before' ? `  overhead ${Math.round(overheadUs(n))} µs/request, ${Math.round(cpuOverheadUs(n))} CPU µs/request` : ''));
    }
    const pg = servers.has('full (PostgreSQL)') ? ` | ${Math.round(rps('full (PostgreSQL)'))} (${(100 * rps('full (PostgreSQL)') / rps('bytes')).toFixed(1)} %), p99 ${median(figures.get('full (PostgreSQL)')!.p99).toFixed(2)} ms` : '';
    const before = servers.has('before') ? ` | ${Math.round(rps('before'))} (${(100 * rps('before') / rps('bytes')).toFixed(1)} %), ${Math.round(overheadUs('before'))} µs (${Math.round(cpuOverheadUs('before'))} CPU µs), p99 ${median(figures.get('before')!.p99).toFixed(2)} ms` : '';
    rows.push(`| ${c.name} | ${Math.round(rps('bytes'))} | ${Math.round(rps('same SQL'))}${before} | ${Math.round(rps('full'))} (${(100 * rps('full') / rps('bytes')).toFixed(1)} %), ${Math.round(overheadUs('full'))} µs (${Math.round(cpuOverheadUs('full'))} CPU µs), p99 ${median(figures.get('full')!.p99).toFixed(2)} ms${pg} |`);
  }
  const pgHead = servers.has('full (PostgreSQL)') ? ' | full on PostgreSQL: req/s (of bytes), p99' : '';
  console.log(`\n| case | bytes req/s | same SQL req/s${servers.has('before') ? ' | before: req/s (of bytes), overhead, p99' : ''} | full: req/s (of bytes), overhead, p99${pgHead} |`);
  console.log(`|---|---|---${servers.has('before') ? '|---' : ''}|---${pgHead ? '|---' : ''}|`);
  for (const row of rows) console.log(row);
} finally {
  for (const server of servers.values()) await stopChild(server.child);
  cluster?.stop();
}
