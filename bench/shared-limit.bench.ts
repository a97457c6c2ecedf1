// What the shared rate limit costs per request, through the full service: GET /api/v1/me (the
// lightest read, so the limiter's share shows) with the limits counted in process, in Redis
// (REDIS_URL: one EVALSHA round trip to a local redis-server per request), and in Redis with
// /metrics on. Needs `redis-server` on PATH. Options: --duration=SECONDS (5) --connections=N (10).
import { cpus, loadavg, totalmem } from 'node:os';
import { dataset } from './support/prompt-dataset.js';
import { freshKey, measure, option, startChild, stopChild } from './support/load.js';
import { startRedisServer } from './support/redis.js';

const DURATION = Number(option('duration', '5'));
const CONNECTIONS = Number(option('connections', '10'));
const PATH = '/api/v1/me';

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load average ${loadavg()[0]!.toFixed(2)}`);
console.log(`load: autocannon, ${CONNECTIONS} connections, ${DURATION} s per case, loopback, server in its own process\n`);

const { port: redisPort, child: redis } = await startRedisServer();

const data = await dataset({ snapshots: 10_000, prompts: 40, days: 90 }, (line) => console.log(line));
const headers = { authorization: `Bearer ${await freshKey(data)}` };
const cases: Array<{ name: string; env: Record<string, string> }> = [
  { name: 'in process', env: {} },
  { name: 'Redis', env: { REDIS_URL: `redis://127.0.0.1:${redisPort}` } },
  { name: 'Redis + /metrics', env: { REDIS_URL: `redis://127.0.0.1:${redisPort}`, METRICS_PORT: '0' } },
];
let failed = false;
try {
  for (const c of cases) {
    Object.assign(process.env, c.env);
    const { url, child } = await startChild('full', data);
    for (const name of Object.keys(c.env)) delete process.env[name];
    try {
      await measure(url, PATH, headers, 1, CONNECTIONS); // warm-up
      const m = await measure(url, PATH, headers, DURATION, CONNECTIONS);
      failed ||= m.errors > 0;
      console.log(`${c.name.padEnd(18)}  p50 ${m.p50.toFixed(2).padStart(6)} ms  p99 ${m.p99.toFixed(2).padStart(6)} ms  ${Math.round(m.rps).toString().padStart(6)} req/s  ${m.errors} errors`);
    } finally {
      await stopChild(child);
    }
  }
} finally {
  redis.kill('SIGTERM');
}
process.exit(failed ? 1 : 0);
