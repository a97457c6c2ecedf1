import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { WebhookDeliveryConfig } from '../../config.js';
import { DatabaseBusyError } from '../../store/errors.js';
import type { Store } from '../../store/index.js';
import type { AttemptResolution, ClaimedDelivery, RecordedAttempt } from '../../store/interfaces/webhook-deliveries.js';
import type { Resolver } from '../ssrf-guard.js';
import { deliveryHeaders, signingSecrets } from '../signing.js';
import { postWebhook, type PostResult } from './http-post.js';
import { maxAttemptsOf, retryDelayMs } from './schedule.js';
import { claimsObserved, reportAttemptRecorded, reportDeliveriesClaimed } from './delivery-channel.js';

export interface DeliveryDispatcher {
  /** Starts polling for due deliveries. */
  start(): void;
  /** Stops claiming, lets attempts in flight finish for the grace period, then abandons the rest to their leases. */
  stop(): Promise<void>;
  /**
   * Sends everything due, also when not started, and resolves once nothing is due and nothing is in
   * flight (tests, scripts); rejects after `timeoutMs`. Retries scheduled later are not waited for.
   */
  drain(options?: { timeoutMs?: number }): Promise<void>;
}

export interface DispatcherDeps {
  /** The outbox is all it reads and writes, on whichever database (several instances may share one). */
  store: Pick<Store, 'webhookDeliveries'>;
  logger: Logger;
  config: WebhookDeliveryConfig;
  now?: () => Date;
  /** Name resolver for the connect-time SSRF check (tests simulate DNS rebinding with it). */
  resolve?: Resolver;
}

// The dispatcher shares the database with the HTTP API. Its writes never wait for a lock another
// writer holds (an import holds it for its whole file): the store refuses them at once
// (DatabaseBusyError), and a claim is tried again at the next poll, an outcome after a backoff.
const BUSY = Symbol('busy');

/** The write's result, or BUSY when the lock was taken. */
async function tryWrite<T>(write: () => Promise<T>): Promise<T | typeof BUSY> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof DatabaseBusyError) return BUSY;
    throw err;
  }
}

/** A fresh order each poll, so that when capacity is short no webhook is always served last. */
function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** How long ago the oldest of these deliveries' events was emitted: the envelope's `timestamp`. */
function oldestAgeSeconds(deliveries: readonly ClaimedDelivery[], now: Date): number {
  let oldest = now.getTime();
  for (const d of deliveries) {
    const emitted = Date.parse((JSON.parse(d.payload) as { timestamp: string }).timestamp);
    if (emitted < oldest) oldest = emitted;
  }
  return (now.getTime() - oldest) / 1000;
}

/**
 * The delivery loop: claims due deliveries with a lease, sends each one signed, records the outcome
 * and schedules retries. Attempts run concurrently, bounded per webhook and per process, so a slow or
 * dead receiver only ever holds its own slots. At-least-once: a delivery leaves `pending` only after
 * its outcome is committed; if the process dies mid-attempt, the lease expires and the attempt is
 * made again with the same `webhook-id`.
 */
export function createDeliveryDispatcher(deps: DispatcherDeps): DeliveryDispatcher {
  const { store, logger, config } = deps;
  const clock = deps.now ?? (() => new Date());
  if (config.leaseMs <= config.timeoutMs) {
    throw new Error(`webhook lease (${config.leaseMs} ms) must outlast the attempt timeout (${config.timeoutMs} ms)`);
  }
  const maxAttempts = maxAttemptsOf(config.retryScheduleMs);
  const inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const perWebhook = new Map<string, number>();
  let running = false;
  /** While started: stops being told of new deliveries. */
  let watching: Promise<() => Promise<void>> | undefined;
  // Set by stop(): a claim under way then takes nothing, so no attempt starts after stop() began.
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;

  function schedule(delayMs: number): void {
    if (!running) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void tick(), delayMs);
  }

  // Several attempts ending in the same turn of the event loop lead to one claim.
  let soon = false;
  function tickSoon(): void {
    if (!running || soon) return;
    soon = true;
    setImmediate(() => {
      soon = false;
      void tick();
    });
  }

  async function tick(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!running) return;
    try {
      await claimAndLaunch();
    } catch (err) {
      logger.error({ err }, 'webhook dispatcher: claiming due deliveries failed');
    }
    schedule(config.pollIntervalMs);
  }

  // One claim at a time: a claim that starts while another is under way would count the slots
  // the first is about to fill. A claim asked for meanwhile waits for it.
  let claiming: Promise<void> = Promise.resolve();
  function claimAndLaunch(): Promise<void> {
    const next = claiming.then(claimOnce);
    claiming = next.catch(() => undefined);
    return next;
  }

  async function claimOnce(): Promise<void> {
    if (stopping) return;
    const capacity = config.maxConcurrency - inFlight.size;
    if (capacity <= 0) return;
    const now = clock();
    const nowText = now.toISOString();
    const deliveries = store.webhookDeliveries;
    // The per-webhook bound counts this process's attempts only: after a crash, the dead process's
    // leases wait to expire without holding back newer deliveries to the same receiver.
    const rooms = new Map<string, number>();
    for (const webhookId of shuffled(await deliveries.dueWebhookIds(nowText))) {
      const room = config.perWebhookConcurrency - (perWebhook.get(webhookId) ?? 0);
      if (room > 0) rooms.set(webhookId, room);
    }
    if (rooms.size === 0 || stopping) return;
    const claimed = await tryWrite(() =>
      deliveries.claimDue({
        now: nowText,
        lease_until: new Date(now.getTime() + config.leaseMs).toISOString(),
        lease_token: randomUUID(),
        rooms,
        limit: capacity,
        max_attempts: maxAttempts,
      }),
    );
    if (claimed === BUSY) return;
    if (claimed.length > 0 && claimsObserved()) reportDeliveriesClaimed({ oldestAgeSeconds: oldestAgeSeconds(claimed, now) });
    for (const delivery of claimed) launch(delivery);
  }

  function launch(delivery: ClaimedDelivery): void {
    const controller = new AbortController();
    const done = attempt(delivery, controller.signal)
      .catch((err: unknown) => logger.error({ err, delivery_id: delivery.id }, 'webhook dispatcher: attempt failed unexpectedly'))
      .finally(() => {
        inFlight.delete(delivery.id);
        const left = (perWebhook.get(delivery.webhook_id) ?? 1) - 1;
        if (left > 0) perWebhook.set(delivery.webhook_id, left);
        else perWebhook.delete(delivery.webhook_id);
        // A freed slot may let a waiting delivery of the same webhook go now rather than at the next poll.
        tickSoon();
      });
    inFlight.set(delivery.id, { controller, done });
    perWebhook.set(delivery.webhook_id, (perWebhook.get(delivery.webhook_id) ?? 0) + 1);
  }

  async function attempt(delivery: ClaimedDelivery, signal: AbortSignal): Promise<void> {
    const startedAt = clock();
    const result = await postWebhook({
      url: delivery.url,
      body: delivery.payload,
      headers: deliveryHeaders({
        deliveryId: delivery.id,
        eventType: delivery.event_type,
        body: delivery.payload,
        secrets: signingSecrets(delivery, startedAt),
        sentAt: startedAt,
      }),
      timeoutMs: config.timeoutMs,
      allowPrivate: config.allowPrivate,
      resolve: deps.resolve,
      signal,
    });
    if (signal.aborted && result.http_status === null) {
      // Shutdown cut it short: no outcome to record. Giving the lease back lets the next start resume it.
      await tryWrite(() => store.webhookDeliveries.release(delivery.id, delivery.lease_token, clock()));
      return;
    }
    await record(delivery, startedAt, result);
  }

  function resolutionOf(delivery: ClaimedDelivery, result: PostResult, now: Date): AttemptResolution {
    if (result.error === null) return { kind: 'delivered' };
    if (delivery.attempt >= delivery.max_attempts) return { kind: 'failed', disable_after: config.disableAfterFailures };
    const wait = retryDelayMs(config.retryScheduleMs, delivery.attempt);
    return { kind: 'retry', next_attempt_at: new Date(now.getTime() + wait).toISOString() };
  }

  /** Commits the outcome, retrying while the database is busy; gives up only when the lease has run out. */
  async function record(delivery: ClaimedDelivery, startedAt: Date, result: PostResult): Promise<void> {
    let wait = 10;
    const leaseEnd = startedAt.getTime() + config.leaseMs;
    for (;;) {
      const now = clock();
      const outcome = await tryWrite(() =>
        store.webhookDeliveries.recordAttempt({
          delivery,
          started_at: startedAt.toISOString(),
          now: now.toISOString(),
          outcome: result,
          resolution: resolutionOf(delivery, result, now),
        }),
      );
      if (outcome !== BUSY) {
        report(delivery, result, outcome);
        return;
      }
      if (now.getTime() + wait >= leaseEnd) {
        logger.warn({ delivery_id: delivery.id }, 'webhook dispatcher: database busy until the lease ran out; the attempt will be made again');
        return;
      }
      await sleep(wait);
      wait = Math.min(wait * 2, 1_000);
    }
  }

  function report(delivery: ClaimedDelivery, result: PostResult, recorded: RecordedAttempt): void {
    const fields = {
      delivery_id: delivery.id,
      webhook_id: delivery.webhook_id,
      event_type: delivery.event_type,
      attempt: delivery.attempt,
      http_status: result.http_status,
      response_time_ms: result.response_time_ms,
    };
    reportAttemptRecorded({ outcome: result.error === null ? 'delivered' : delivery.attempt >= delivery.max_attempts ? 'failed' : 'retry' });
    if (result.error === null) logger.debug(fields, 'webhook delivered');
    else logger.warn({ ...fields, error: result.error }, 'webhook attempt failed');
    if (recorded.webhook_disabled) {
      logger.warn(
        { webhook_id: delivery.webhook_id, consecutive_failures: recorded.consecutive_failures },
        'webhook disabled after consecutive failed deliveries',
      );
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      stopping = false;
      schedule(0);
      // New deliveries committed by any instance wake the loop at once; the poll stays as the fallback.
      watching = store.webhookDeliveries.watchEnqueued(tickSoon, (err) => logger.warn({ err }, 'webhook dispatcher: not told of new deliveries for now; polling'))
        .catch((err: unknown) => {
          logger.warn({ err }, 'webhook dispatcher: cannot be told of new deliveries; polling');
          return async () => undefined;
        });
    },
    async stop() {
      running = false;
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      const unwatch = watching;
      watching = undefined;
      await (await unwatch)?.();
      await claiming;
      const pending = [...inFlight.values()];
      if (pending.length === 0) return;
      const all = Promise.all(pending.map((p) => p.done));
      let grace: NodeJS.Timeout | undefined;
      const expired = new Promise<'expired'>((resolve) => {
        grace = setTimeout(() => resolve('expired'), config.shutdownGraceMs);
      });
      const first = await Promise.race([all, expired]);
      clearTimeout(grace);
      if (first === 'expired') {
        for (const p of inFlight.values()) p.controller.abort();
        await Promise.all([...inFlight.values()].map((p) => p.done));
      }
    },
    async drain(options = {}) {
      stopping = false;
      const deadline = Date.now() + (options.timeoutMs ?? 60_000);
      for (;;) {
        if (inFlight.size === 0 && (await store.webhookDeliveries.dueWebhookIds(clock().toISOString())).length === 0) return;
        if (Date.now() > deadline) throw new Error('webhook deliveries did not drain in time');
        try {
          await claimAndLaunch();
        } catch (err) {
          logger.error({ err }, 'webhook dispatcher: claiming due deliveries failed');
        }
        await sleep(Math.min(config.pollIntervalMs, 20));
      }
    },
  };
}
