import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Store } from '../../store/index.js';
import { onImportFinished } from '../../import/import-channel.js';
import { onDeliveryActivity } from '../../webhooks/delivery/delivery-channel.js';
import type { Readiness } from '../readiness.js';

const PREFIX = 'workspace_api_';

/**
 * The service's metrics, in a registry of its own (never prom-client's global one, so several apps
 * in one test process do not share series). Request, limiter and delivery series are fed as things
 * happen; the outbox backlog and dependency health are read when scraped. README of this folder.
 */
export interface ServiceMetrics {
  registry: Registry;
  requests: Histogram<'operation_id' | 'method' | 'status'>;
  rateLimitDecisions: Counter<'policy' | 'decision'>;
  /** Stops listening to imports and deliveries. */
  close: () => void;
}

export function createServiceMetrics(deps: { store: Store; readiness: Readiness }): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  const requests = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'Requests answered, by contract operation (none for service endpoints and unknown paths), method and status, with their time to answer.',
    labelNames: ['operation_id', 'method', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const rateLimitDecisions = new Counter({
    name: `${PREFIX}rate_limit_decisions_total`,
    help: 'Rate limit decisions by policy (workspace, client) and decision (admitted, refused, unavailable: the limit could not be counted and the request got 503).',
    labelNames: ['policy', 'decision'] as const,
    registers: [registry],
  });
  new Gauge({
    name: `${PREFIX}webhook_outbox_pending`,
    help: 'Webhook deliveries waiting to be delivered (due now or retrying later), in the whole database.',
    registers: [registry],
    async collect() {
      // A database that does not answer leaves the series out of this scrape; dependency_up says why.
      try {
        this.set(await deps.store.webhookDeliveries.countPending());
      } catch {
        this.reset();
      }
    },
  });
  // The loop takes due deliveries every poll, far more often than a scrape: the gauge keeps the
  // oldest seen since the previous scrape, so a late delivery shows even if the next poll is prompt.
  let oldestSinceScrape = 0;
  new Gauge({
    name: `${PREFIX}webhook_outbox_oldest_pending_age_seconds`,
    help: 'Age of the oldest event among the pending deliveries this process\'s delivery loop took since the previous scrape (how late deliveries go out); 0 when it took none.',
    registers: [registry],
    collect() {
      this.set(oldestSinceScrape);
      oldestSinceScrape = 0;
    },
  });
  const attempts = new Counter({
    name: `${PREFIX}webhook_delivery_attempts_total`,
    help: 'Webhook delivery attempts made by this process, by outcome (delivered, retry: failed and scheduled again, failed: the last attempt failed).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const importRecords = new Counter({
    name: `${PREFIX}import_lines_total`,
    help: 'Records (non-blank lines) written by imports that ran in this process and committed.',
    registers: [registry],
  });
  const importDuration = new Histogram({
    name: `${PREFIX}import_duration_seconds`,
    help: 'Imports that ran in this process, by outcome (committed, rejected), with their duration.',
    labelNames: ['outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900],
    registers: [registry],
  });
  new Gauge({
    name: `${PREFIX}dependency_up`,
    help: 'Whether each dependency answers now (1) or not (0): database (postgresql on PostgreSQL), and redis when REDIS_URL is set.',
    labelNames: ['dependency'] as const,
    registers: [registry],
    async collect() {
      for (const { name, up } of await deps.readiness.probe()) this.set({ dependency: name }, up ? 1 : 0);
    },
  });

  const stopImports = onImportFinished(({ outcome, records, seconds }) => {
    importRecords.inc(records);
    importDuration.observe({ outcome }, seconds);
  });
  const stopDeliveries = onDeliveryActivity({
    attemptRecorded: ({ outcome }) => attempts.inc({ outcome }),
    deliveriesClaimed: ({ oldestAgeSeconds }) => {
      oldestSinceScrape = Math.max(oldestSinceScrape, oldestAgeSeconds);
    },
  });
  // Series that exist from the first scrape, so a rate over them starts at 0 rather than nothing.
  for (const outcome of ['delivered', 'retry', 'failed']) attempts.inc({ outcome }, 0);
  for (const outcome of ['committed', 'rejected']) importDuration.zero({ outcome });

  return {
    registry,
    requests,
    rateLimitDecisions,
    close: () => {
      stopImports();
      stopDeliveries();
    },
  };
}
