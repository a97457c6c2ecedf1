// Crash test of webhook delivery: the service (the real `serve` command, dispatcher included) runs
// over a database file and is killed with SIGKILL at random moments, then restarted, while status
// changes keep arriving for three loopback receivers. After the last restart it waits until every
// delivery is done and checks at-least-once: every (event, webhook) pair received, none lost, every
// duplicate under the same webhook-id, every request signed correctly.
//
//   npx tsx scripts/webhook-crash-test.ts [--events=10000] [--kills=20] [--seed=N]
//
// Exits 1 when a check fails. The test suite runs a short version through `runCrashTest`.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { openSqliteStore } from '../src/store/index.js';
import { enqueueEvent } from '../src/store/sqlite/outbox.js';
import type { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { SAMPLE_EVENT_DATA } from '../src/webhooks/delivery/index.js';
import { DEFAULT_WORKSPACE_LIMITS } from '../src/config.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface CrashTestOptions {
  events: number;
  kills: number;
  /** Random moments are drawn between these, counted from the moment the service is up. */
  killAfterMs?: [number, number];
  seed?: number;
  /** Gives up waiting for the last deliveries after this long. */
  settleTimeoutMs?: number;
  /**
   * Node's arguments that start the command line; the TypeScript source through tsx by default.
   * The test suite passes the compiled `dist/cli/main.js`, which starts three times faster.
   */
  cli?: string[];
  log?: (line: string) => void;
}

export interface CrashTestResult {
  events: number;
  webhooks: number;
  expected_pairs: number;
  received_pairs: number;
  missing_pairs: number;
  requests: number;
  duplicates: number;
  /** Pairs received under more than one webhook-id (must be 0). */
  pairs_with_several_ids: number;
  bad_signatures: number;
  kills: number;
  /** Kills that landed while the service was still starting. */
  kills_during_startup: number;
  deliveries_not_delivered: number;
  seconds: number;
}

export interface Receiver {
  url: string;
  secret: string;
  /** event key → every webhook-id it arrived under, and how many times. */
  pairs: Map<string, { ids: Set<string>; count: number }>;
  requests: number;
  badSignatures: number;
  close: () => Promise<void>;
}

// Deterministic per seed, so a failing run can be replayed.
export function randomSource(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

export async function startReceiver(random: () => number): Promise<Receiver> {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const verifier = new Webhook(secret);
  const receiver: Omit<Receiver, 'url' | 'close'> = { secret, pairs: new Map(), requests: 0, badSignatures: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      receiver.requests += 1;
      let key: string;
      try {
        const body = verifier.verify(raw, req.headers as Record<string, string>) as { data: { id: string } };
        key = body.data.id;
      } catch {
        receiver.badSignatures += 1;
        res.writeHead(400).end();
        return;
      }
      const id = String(req.headers['webhook-id']);
      const seen = receiver.pairs.get(key) ?? { ids: new Set<string>(), count: 0 };
      seen.ids.add(id);
      seen.count += 1;
      receiver.pairs.set(key, seen);
      // A little latency, so kills often land with attempts in flight.
      setTimeout(() => res.writeHead(200).end('ok'), Math.floor(random() * 8));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...receiver,
    get requests() {
      return receiver.requests;
    },
    get badSignatures() {
      return receiver.badSignatures;
    },
    url: `http://127.0.0.1:${port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The service as deployed: `serve` over the database (a file or a postgres:// URL), with a
 * shortened lease so reclaims come quickly; `env` adds settings (a metrics port).
 */
export function spawnService(cli: string[], database: string, logFile: string, env: Record<string, string> = {}): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, [...cli, 'serve', '--db', database, '--port', '0', '--json'], {
    cwd: root,
    env: {
      ...process.env,
      LOG_FILE: logFile,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_LEASE_MS: '1500',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,400ms,800ms,1s,1s,1s,1s,1s',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (out.includes('"url"')) resolve();
    });
    child.once('exit', (code, signal) => reject(new Error(`service exited before it was ready (${code ?? signal})`)));
  });
  ready.catch(() => undefined);
  return { child, ready };
}

/** Pairs of (event key, receiver) received, requests beyond one per pair, and pairs under more than one webhook-id. */
export function countPairs(receivers: readonly Receiver[], keys: readonly string[]): { received: number; duplicates: number; severalIds: number } {
  const counted = { received: 0, duplicates: 0, severalIds: 0 };
  for (const r of receivers) {
    for (const key of keys) {
      const seen = r.pairs.get(key);
      if (!seen) continue;
      counted.received += 1;
      counted.duplicates += seen.count - 1;
      if (seen.ids.size > 1) counted.severalIds += 1;
    }
  }
  return counted;
}

export function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function enqueueBatch(store: SqliteStore, workspaceId: string, keys: string[]): void {
  // One transaction for the whole batch, as an import writes its events: the SQLite outbox directly.
  store.db.transaction(() => {
    for (const key of keys) {
      enqueueEvent(store.db, { workspaceId, type: 'content.status_updated', data: { ...SAMPLE_EVENT_DATA['content.status_updated'], id: key, status: 'PUBLISHED' } });
    }
  })();
}

export async function runCrashTest(options: CrashTestOptions): Promise<CrashTestResult> {
  const log = options.log ?? (() => undefined);
  const random = randomSource(options.seed ?? Date.now());
  const [minKill, maxKill] = options.killAfterMs ?? [0, 1_500];
  const started = Date.now();
  const dir = mkdtempSync(path.join(tmpdir(), 'webhook-crash-'));
  const dbFile = path.join(dir, 'service.db');
  const store = openSqliteStore(dbFile);
  const receivers = await Promise.all([0, 1, 2].map(() => startReceiver(random)));
  let service: { child: ChildProcess; ready: Promise<void> } | undefined;
  try {
    const now = new Date().toISOString();
    const workspaceId = randomUUID();
    const ownerId = randomUUID();
    await store.accounts.insertWorkspace({ id: workspaceId, name: 'Crash test', subscription_status: 'active', created_at: now });
    await store.accounts.insertUser({ id: ownerId, email: `owner-${ownerId}@example.test`, name: 'Owner', created_at: now });
    await store.accounts.upsertMembership(workspaceId, ownerId, 'owner', now);
    for (const [i, r] of receivers.entries()) {
      await store.webhooks.insertUnderCap({
        id: randomUUID(),
        workspace_id: workspaceId,
        url: r.url,
        name: `Receiver ${i + 1}`,
        description: null,
        events: JSON.stringify(['content.status_updated']),
        secret: r.secret,
        previous_secret: null,
        previous_secret_expires_at: null,
        enabled: 1,
        consecutive_failures: 0,
        disabled_at: null,
        created_by: ownerId,
        created_at: now,
        updated_at: now,
      }, DEFAULT_WORKSPACE_LIMITS.webhooks);
    }

    // The events arrive in one batch per run of the service, so kills land during both intake and delivery.
    const keys = Array.from({ length: options.events }, () => randomUUID());
    const batches = options.kills + 1;
    const batchSize = Math.ceil(keys.length / batches);
    let killsDuringStartup = 0;
    for (let run = 0; run <= options.kills; run += 1) {
      const logFile = path.join(dir, `service-${run}.log`);
      service = spawnService(options.cli ?? ['--import', 'tsx', path.join(root, 'src/cli/main.ts')], dbFile, logFile);
      const batch = keys.slice(run * batchSize, (run + 1) * batchSize);
      if (batch.length > 0) enqueueBatch(store, workspaceId, batch);
      if (run === options.kills) break;
      // Most kills land while delivering (a random moment after the service is up); one in five
      // lands while it is still starting (migrations, claims of expired leases).
      const duringStartup = random() < 0.2;
      const after = duringStartup ? Math.floor(random() * 1_000) : minKill + Math.floor(random() * (maxKill - minKill));
      let isReady = false;
      service.ready.then(() => (isReady = true), () => undefined);
      if (!duringStartup) await service.ready;
      await sleep(after);
      if (!isReady) killsDuringStartup += 1;
      await killed(service.child);
      const received = receivers.reduce((n, r) => n + r.requests, 0);
      log(`kill ${run + 1}/${options.kills} after ${after} ms${isReady ? '' : ' (still starting)'}: ${received} requests received so far`);
    }

    const last = service!;
    await last.ready;
    const deadline = Date.now() + (options.settleTimeoutMs ?? 300_000);
    const expectedPairs = options.events * receivers.length;
    const receivedPairs = (): number => receivers.reduce((n, r) => n + r.pairs.size, 0);
    while ((await store.webhookDeliveries.countPending()) > 0 || receivedPairs() < expectedPairs) {
      if (Date.now() > deadline) break;
      await sleep(100);
    }
    last.child.kill('SIGTERM');
    await new Promise((resolve) => last.child.once('exit', resolve));
    service = undefined;

    const { received, duplicates, severalIds } = countPairs(receivers, keys);
    const notDelivered = store.db.prepare("SELECT count(*) FROM webhook_deliveries WHERE status <> 'delivered'").pluck().get() as number;
    return {
      events: options.events,
      webhooks: receivers.length,
      expected_pairs: expectedPairs,
      received_pairs: received,
      missing_pairs: expectedPairs - received,
      requests: receivers.reduce((n, r) => n + r.requests, 0),
      duplicates,
      pairs_with_several_ids: severalIds,
      bad_signatures: receivers.reduce((n, r) => n + r.badSignatures, 0),
      kills: options.kills,
      kills_during_startup: killsDuringStartup,
      deliveries_not_delivered: notDelivered,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    if (service) await killed(service.child);
    await Promise.all(receivers.map((r) => r.close()));
    store.db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function crashTestPassed(result: CrashTestResult): boolean {
  return (
    result.missing_pairs === 0 &&
    result.pairs_with_several_ids === 0 &&
    result.bad_signatures === 0 &&
    result.deliveries_not_delivered === 0
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const option = (name: string, fallback: number): number => {
    const raw = process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a non-negative integer`);
    return value;
  };
  const seed = option('seed', Date.now() % 2_147_483_647);
  console.log(`webhook crash test (seed ${seed})`);
  const result = await runCrashTest({ events: option('events', 10_000), kills: option('kills', 20), seed, log: (l) => console.log(l) });
  console.log(JSON.stringify(result, null, 2));
  const passed = crashTestPassed(result);
  console.log(passed ? `PASS: every pair delivered at least once; ${result.duplicates} duplicates, all under their original webhook-id` : 'FAIL');
  process.exit(passed ? 0 : 1);
}
