// One instance against three on this machine: the real `serve` command over one PostgreSQL
// database (a throwaway cluster from the system's binaries) and one Redis (the shared rate limit,
// its quota raised out of the way), GET /api/v1/me and GET /api/v1/workspace under the same total
// number of connections, spread round-robin over the instances. Needs PostgreSQL's server binaries
// and `redis-server`. Options: --duration=SECONDS (5) --connections=N (12).
import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createApiKey } from '../src/keys/api-keys.js';
import { openPostgresStore } from '../src/store/index.js';
import { startPostgresCluster } from '../scripts/postgres-cluster.js';
import { measureAcross, option, stopChild } from './support/load.js';
import { startRedisServer } from './support/redis.js';
import { insertBenchWorkspace } from './support/prompt-dataset.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(option('duration', '5'));
const CONNECTIONS = Number(option('connections', '12'));

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load average ${loadavg()[0]!.toFixed(2)}`);
console.log(`load: autocannon, ${CONNECTIONS} connections in all, ${DURATION} s per case, loopback; each instance its own process\n`);

const cluster = await startPostgresCluster();
const redis = await startRedisServer();
const databaseUrl = cluster.url();

/** `serve` from the compiled command line when built, as deployed. */
async function startInstance(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(root, 'dist', 'cli', 'main.js'), 'serve', '--db', databaseUrl, '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', LOG_FILE: '/dev/null', REDIS_URL: redis.url, RATE_LIMIT_QUOTA: '1000000000' },
  });
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return { url: (JSON.parse(first) as { url: string }).url, child };
}

let failed = false;
const children: ChildProcess[] = [];
try {
  // The first start applies the migrations; the data is one workspace, its owner and a key.
  children.push((await startInstance()).child);
  const store = await openPostgresStore(databaseUrl);
  const { workspaceId, ownerId } = await insertBenchWorkspace(store);
  const { key } = await createApiKey(store, { workspaceId, userId: ownerId, name: 'Benchmark' });
  await store.close();
  await stopChild(children.pop()!);
  const headers = { authorization: `Bearer ${key}` };

  for (const count of [1, 3]) {
    const started = await Promise.all(Array.from({ length: count }, () => startInstance()));
    children.push(...started.map((s) => s.child));
    const urls = started.map((s) => s.url);
    try {
      for (const requestPath of ['/api/v1/me', '/api/v1/workspace']) {
        await measureAcross(urls, requestPath, headers, 1, CONNECTIONS); // warm-up
        const m = await measureAcross(urls, requestPath, headers, DURATION, CONNECTIONS);
        failed ||= m.errors > 0;
        console.log(`${String(count)} instance${count > 1 ? 's' : ' '}  ${requestPath.padEnd(18)}  p50 ${m.p50.toFixed(2).padStart(6)} ms  p99 ${m.p99.toFixed(2).padStart(7)} ms  ${Math.round(m.rps).toString().padStart(6)} req/s  ${m.errors} errors`);
      }
    } finally {
      for (const child of children.splice(0)) await stopChild(child);
    }
  }
} finally {
  for (const child of children) await stopChild(child);
  redis.child.kill('SIGTERM');
  cluster.stop();
}
process.exit(failed ? 1 : 0);
