// Webhook delivery: deliveries per second to one loopback receiver, and the time from a status
// change (the event written to the outbox by another process) to the first delivery attempt, p50,
// p95 and p99, while a second subscribed receiver never answers. The service side is the real
// dispatcher with the production settings (15 s timeout, 100 ms poll, 8 attempts in flight per
// webhook), private targets allowed for loopback. Receivers and the producer run in another process.
// Options: --events=N (20000, the burst) --rate=N (200 events/s) --seconds=N (15, the steady phase)
// --poll=MS (the dispatcher's poll interval; default WEBHOOK_POLL_INTERVAL_MS's default).
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { DEFAULT_WORKSPACE_LIMITS, loadConfig } from '../src/config.js';
import { openSqliteStore } from '../src/store/index.js';
import { createDeliveryDispatcher } from '../src/webhooks/delivery/index.js';
import type { LoadCommand, LoadReply } from './support/webhook-load.js';

const option = (name: string, fallback: number): number => {
  const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive integer`);
  return value;
};
const EVENTS = option('events', 20_000);
const RATE = option('rate', 200);
const SECONDS = option('seconds', 15);
const POLL = process.argv.some((a) => a.startsWith('--poll=')) ? option('poll', 0) : undefined;

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'webhook-bench-'));
const dbFile = path.join(dir, 'service.db');
const store = openSqliteStore(dbFile);

const child: ChildProcess = fork(path.join(here, 'support/webhook-load.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
const replies: LoadReply[] = [];
const waiters: ((r: LoadReply) => void)[] = [];
child.on('message', (m: LoadReply) => {
  const w = waiters.shift();
  if (w) w(m);
  else replies.push(m);
});
const next = (): Promise<LoadReply> => new Promise((resolve) => (replies.length > 0 ? resolve(replies.shift()!) : waiters.push(resolve)));
const ask = async (command: LoadCommand): Promise<LoadReply> => {
  child.send(command);
  return next();
};
const stats = async () => (await ask({ type: 'stats' })) as Extract<LoadReply, { type: 'stats' }>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

const ready = (await next()) as Extract<LoadReply, { type: 'ready' }>;
const now = new Date().toISOString();
const workspaceId = randomUUID();
const ownerId = randomUUID();
await store.accounts.insertWorkspace({ id: workspaceId, name: 'Delivery benchmark', subscription_status: 'active', created_at: now });
await store.accounts.insertUser({ id: ownerId, email: `owner-${ownerId}@example.test`, name: 'Owner', created_at: now });
await store.accounts.upsertMembership(workspaceId, ownerId, 'owner', now);
for (const [name, url] of [['fast', ready.fastUrl], ['hanging', ready.hangingUrl]] as const) {
  await store.webhooks.insertUnderCap({
    id: randomUUID(), workspace_id: workspaceId, url, name, description: null, events: JSON.stringify(['content.status_updated']),
    secret: `whsec_${Buffer.from(randomUUID()).toString('base64')}`, previous_secret: null, previous_secret_expires_at: null,
    enabled: 1, consecutive_failures: 0, disabled_at: null, created_by: ownerId, created_at: now, updated_at: now,
  }, DEFAULT_WORKSPACE_LIMITS.webhooks);
}

const config = { ...loadConfig({}).webhooks, allowPrivate: true, ...(POLL === undefined ? {} : { pollIntervalMs: POLL }) };
const dispatcher = createDeliveryDispatcher({ store, logger: pino({ level: 'error' }), config });
dispatcher.start();

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}`);
console.log(`settings: timeout ${config.timeoutMs} ms, poll ${config.pollIntervalMs} ms, ${config.perWebhookConcurrency} in flight per webhook, lease ${config.leaseMs} ms\n`);

// Phase 1: a burst of status changes; how fast does the backlog reach the healthy receiver?
const burstStarted = Date.now();
await ask({ type: 'burst', dbFile, workspaceId, count: EVENTS });
const written = Date.now();
const cpuBefore = process.cpuUsage();
let received = 0;
while (received < EVENTS) {
  await sleep(50);
  received = (await stats()).received;
  if (Date.now() - written > 300_000) throw new Error(`only ${received} of ${EVENTS} delivered after 5 minutes`);
}
const burstSeconds = (Date.now() - written) / 1000;
const throughput = Math.round(EVENTS / burstSeconds);
const cpu = process.cpuUsage(cpuBefore);
// The service's own CPU per delivery: on a shared machine the rate depends on the neighbours, this much less.
const cpuMsPerDelivery = Math.round(((cpu.user + cpu.system) / 1000 / EVENTS) * 1000) / 1000;
console.log(`burst: ${EVENTS} events written in ${written - burstStarted} ms, delivered to the healthy receiver in ${burstSeconds.toFixed(2)} s: ${throughput} deliveries/s, ${cpuMsPerDelivery} ms of service CPU each`);

// Phase 2: a steady stream; time from each status change to its first attempt.
await ask({ type: 'reset' });
await ask({ type: 'steady', dbFile, workspaceId, perSecond: RATE, seconds: SECONDS });
const expected = RATE * SECONDS;
for (let waited = 0; (await stats()).received < expected && waited < 60_000; waited += 50) await sleep(50);
const steady = await stats();
const sorted = [...steady.latenciesMs].sort((a, b) => a - b);
const figures = {
  deliveries_per_second: throughput,
  service_cpu_ms_per_delivery: cpuMsPerDelivery,
  steady_rate_per_second: RATE,
  steady_events: expected,
  steady_received: steady.received,
  p50_ms: percentile(sorted, 50),
  p95_ms: percentile(sorted, 95),
  p99_ms: percentile(sorted, 99),
  max_ms: sorted[sorted.length - 1],
  hanging_receiver_requests: steady.hangingRequests,
};
console.log(`steady: ${RATE} events/s for ${SECONDS} s: first attempt p50 ${figures.p50_ms} ms, p95 ${figures.p95_ms} ms, p99 ${figures.p99_ms} ms, max ${figures.max_ms} ms`);
console.log(`the hanging receiver got ${steady.hangingRequests} requests and answered none (${config.perWebhookConcurrency} at a time, each given up after ${config.timeoutMs} ms)\n`);
console.log(JSON.stringify(figures));

await dispatcher.stop();
child.kill();
store.db.close();
rmSync(dir, { recursive: true, force: true });
process.exit(steady.received === expected ? 0 : 1);
