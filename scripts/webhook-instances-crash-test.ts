// Crash test of webhook delivery across instances: three `serve` processes over one PostgreSQL
// database deliver to loopback receivers while events keep arriving in batches and instances are
// killed with SIGKILL at random moments and started again. Every instance's /metrics is scraped
// meanwhile for the outbox backlog. After the last restart it waits until every delivery is done
// and checks at-least-once as `webhook-crash-test.ts` does: every (event, webhook) pair received,
// every duplicate under the same webhook-id, every request signed correctly.
//
//   npx tsx scripts/webhook-instances-crash-test.ts --database=postgres://… [--events=10000] [--kills=20] [--webhooks=1] [--seed=N]
//
// The test suite runs it over a database of its throwaway cluster
// (test/process/webhooks-delivery/postgres-instances-crash.test.ts).
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openPostgresStore } from '../src/store/index.js';
import type { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { enqueueEventsOn } from '../src/store/postgres/outbox.js';
import { inTransaction } from '../src/store/postgres/query.js';
import { SAMPLE_EVENT_DATA } from '../src/webhooks/delivery/index.js';
import { freePort } from './postgres-cluster.js';
import { countPairs, killed, randomSource, spawnService, startReceiver, type CrashTestResult, type Receiver } from './webhook-crash-test.js';
import { DEFAULT_WORKSPACE_LIMITS } from '../src/config.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INSTANCES = 3;
const BACKLOG = /^workspace_api_webhook_outbox_pending (\d+)/m;

export interface InstancesCrashTestOptions {
  /** A migrated or empty PostgreSQL database the run may fill. */
  databaseUrl: string;
  events: number;
  kills: number;
  webhooks: number;
  seed?: number;
  settleTimeoutMs?: number;
  /** Node's arguments that start the command line; the TypeScript source through tsx by default. */
  cli?: string[];
  log?: (line: string) => void;
}

/** The figures of `runCrashTest`, and what three instances add: the backlog /metrics showed. */
export interface InstancesCrashTestResult extends Omit<CrashTestResult, 'kills_during_startup'> {
  instances: number;
  /** The outbox backlog as /metrics showed it: the highest seen, and the last scrape's. */
  backlog_peak: number;
  backlog_last: number;
  scrapes: number;
}

interface Slot {
  metricsPort: number;
  service?: { child: ChildProcess; ready: Promise<void> };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function createWorkspaceWithWebhooks(store: PostgresStore, receivers: Receiver[]): Promise<string> {
  const now = new Date().toISOString();
  const workspaceId = randomUUID();
  const ownerId = randomUUID();
  await store.accounts.insertWorkspace({ id: workspaceId, name: 'Crash test', subscription_status: 'active', created_at: now });
  await store.accounts.insertUser({ id: ownerId, email: `owner-${ownerId}@example.test`, name: 'Owner', created_at: now });
  await store.accounts.upsertMembership(workspaceId, ownerId, 'owner', now);
  for (const [i, r] of receivers.entries()) {
    await store.webhooks.insertUnderCap({
      id: randomUUID(), workspace_id: workspaceId, url: r.url, name: `Receiver ${i + 1}`, description: null,
      events: JSON.stringify(['content.status_updated']), secret: r.secret, previous_secret: null, previous_secret_expires_at: null,
      enabled: 1, consecutive_failures: 0, disabled_at: null, created_by: ownerId, created_at: now, updated_at: now,
    }, DEFAULT_WORKSPACE_LIMITS.webhooks);
  }
  return workspaceId;
}

/** One transaction for the batch, as an import writes its events (and its one notification). */
function enqueueBatch(store: PostgresStore, workspaceId: string, keys: string[]): Promise<string[]> {
  return inTransaction(store.pool, (client) => enqueueEventsOn(client, keys.map((id) => ({
    workspaceId, type: 'content.status_updated' as const, data: { ...SAMPLE_EVENT_DATA['content.status_updated'], id, status: 'PUBLISHED' as const },
  }))));
}

export async function runInstancesCrashTest(options: InstancesCrashTestOptions): Promise<InstancesCrashTestResult> {
  const log = options.log ?? (() => undefined);
  const random = randomSource(options.seed ?? Date.now());
  const started = Date.now();
  const dir = mkdtempSync(path.join(tmpdir(), 'webhook-instances-crash-'));
  const cli = options.cli ?? ['--import', 'tsx', path.join(root, 'src/cli/main.ts')];
  const store = await openPostgresStore(options.databaseUrl);
  const receivers = await Promise.all(Array.from({ length: options.webhooks }, () => startReceiver(random)));
  const slots: Slot[] = [];
  for (let i = 0; i < INSTANCES; i++) slots.push({ metricsPort: await freePort() });
  let starts = 0;
  const startSlot = (slot: Slot) => {
    starts += 1;
    slot.service = spawnService(cli, options.databaseUrl, path.join(dir, `service-${starts}.log`), {
      METRICS_PORT: String(slot.metricsPort),
      // Three instances share each receiver: more attempts at once per instance keep the receivers busy.
      WEBHOOK_PER_WEBHOOK_CONCURRENCY: '32',
    });
  };

  // Every instance's /metrics in turn, as a Prometheus server scrapes them; a killed one does not answer.
  const backlog: number[] = [];
  let scraping = true;
  const scraper = (async () => {
    for (let i = 0; scraping; i++) {
      const text = await fetch(`http://127.0.0.1:${slots[i % INSTANCES]!.metricsPort}/metrics`).then((r) => r.text(), () => '');
      const match = BACKLOG.exec(text);
      if (match) backlog.push(Number(match[1]));
      await sleep(100);
    }
  })();

  try {
    const workspaceId = await createWorkspaceWithWebhooks(store, receivers);
    for (const slot of slots) startSlot(slot);
    await Promise.all(slots.map((s) => s.service!.ready));

    // A batch of events before each kill, so kills land during both intake and delivery.
    const keys = Array.from({ length: options.events }, () => randomUUID());
    const batchSize = Math.ceil(keys.length / (options.kills + 1));
    for (let kill = 0; kill <= options.kills; kill += 1) {
      const batch = keys.slice(kill * batchSize, (kill + 1) * batchSize);
      if (batch.length > 0) await enqueueBatch(store, workspaceId, batch);
      if (kill === options.kills) break;
      const after = 200 + Math.floor(random() * 1_300);
      await sleep(after);
      const slot = slots[Math.floor(random() * INSTANCES)]!;
      await killed(slot.service!.child);
      startSlot(slot);
      log(`kill ${kill + 1}/${options.kills} after ${after} ms: ${receivers.reduce((n, r) => n + r.requests, 0)} requests received so far`);
    }
    await Promise.all(slots.map((s) => s.service!.ready));

    const deadline = Date.now() + (options.settleTimeoutMs ?? 300_000);
    const expectedPairs = options.events * receivers.length;
    const receivedPairs = (): number => receivers.reduce((n, r) => n + r.pairs.size, 0);
    while ((await store.webhookDeliveries.countPending()) > 0 || receivedPairs() < expectedPairs) {
      if (Date.now() > deadline) break;
      await sleep(100);
    }
    // Scrapes until one shows the drained outbox.
    const drained = backlog.length;
    while (Date.now() < deadline && !(backlog.length > drained && backlog[backlog.length - 1] === 0)) await sleep(50);
    scraping = false;
    await scraper;
    for (const slot of slots) {
      slot.service!.child.kill('SIGTERM');
      await new Promise((resolve) => slot.service!.child.once('exit', resolve));
      slot.service = undefined;
    }

    const { received, duplicates, severalIds } = countPairs(receivers, keys);
    const notDelivered = (await store.pool.query<{ n: number }>("SELECT count(*) AS n FROM webhook_deliveries WHERE status <> 'delivered'")).rows[0]!.n;
    return {
      instances: INSTANCES,
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
      deliveries_not_delivered: notDelivered,
      backlog_peak: Math.max(0, ...backlog),
      backlog_last: backlog[backlog.length - 1] ?? -1,
      scrapes: backlog.length,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    scraping = false;
    await scraper;
    for (const slot of slots) if (slot.service) await killed(slot.service.child);
    await Promise.all(receivers.map((r) => r.close()));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const option = (name: string, fallback: number): number => {
    const value = Number(arg(name) ?? fallback);
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a non-negative integer`);
    return value;
  };
  const databaseUrl = arg('database') ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('give --database=postgres://… (a database the run may fill)');
  const seed = option('seed', Date.now() % 2_147_483_647);
  console.log(`webhook crash test over ${INSTANCES} instances (seed ${seed})`);
  const result = await runInstancesCrashTest({
    databaseUrl, events: option('events', 10_000), kills: option('kills', 20), webhooks: option('webhooks', 1), seed, log: (l) => console.log(l),
  });
  console.log(JSON.stringify(result, null, 2));
}
