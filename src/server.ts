import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { openStore, type Store } from './store/index.js';
import { createLogger } from './logger.js';
import { createBackgroundWriters, finishBackgroundWriters } from './http/background-writers.js';
import { createDeliveryDispatcher, type DeliveryDispatcher } from './webhooks/delivery/index.js';
import { answerClientError } from './http/client-error.js';
import { connectionOptions, reportDroppedConnections } from './http/connection-limits.js';
import { createExpressServer } from './http/express-server.js';
import { listenOn } from './http/listen.js';
import { connectSharedRateLimits } from './http/rate-limit/shared-rate-limits.js';
import { databaseCheck, Readiness } from './http/readiness.js';
import { createServiceMetrics } from './http/metrics/service-metrics.js';
import { startMetricsServer, type MetricsServer } from './http/metrics/metrics-server.js';
import { startAuditLogPruner } from './audit/audit-log-retention.js';

export interface RunningServer {
  server: Server;
  store: Store;
  logger: Logger;
  url: string;
  /** Where `GET /metrics` is served (METRICS_PORT); undefined when metrics are off. */
  metricsUrl: string | undefined;
  /** Sends webhook deliveries while the server runs. */
  dispatcher: DeliveryDispatcher;
  /** What `/readyz` answers (its dependencies, and whether the instance is shutting down). */
  readiness: Readiness;
  /** Stops at once: no new connections, in-flight requests finish, deferred writes are flushed. */
  close: () => Promise<void>;
  /** Stops as an instance behind a load balancer does: `/readyz` answers 503 for the drain delay, then `close()`. */
  drain: () => Promise<void>;
}

/** How long the start waits for a first connection to Redis before listening anyway. */
const REDIS_START_WAIT_MS = 2_000;

/** The process side of the service: database, listen, graceful shutdown. */
export async function startServer(config: Config, options: { store?: Store; logger?: Logger } = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger({ level: config.logLevel, file: config.logFile });
  const store = options.store ?? (await openStore(config.databaseAddress, { serving: true, pool: config.databasePool }));
  const writers = createBackgroundWriters(store);
  const rateLimit = { quota: config.rateLimitQuota, windowSeconds: config.rateLimitWindowSeconds, authFailureQuota: config.authFailureQuota };
  const { url: redisUrl } = config.redis;
  const shared = redisUrl === undefined ? undefined : connectSharedRateLimits({ ...config.redis, url: redisUrl }, rateLimit, logger);
  if (!shared && store.kind === 'postgres') {
    logger.warn('DATABASE_URL names PostgreSQL but REDIS_URL is not set: the rate limits are counted in this process only, '
      + 'so several instances would each admit the whole quota (docs/operators.md, "Running several instances")');
  }
  // Without a connection every request would answer 503: give Redis a moment before listening.
  if (shared && !(await shared.whenReady(REDIS_START_WAIT_MS))) {
    logger.warn(`redis did not answer within ${REDIS_START_WAIT_MS} ms of starting: requests answer 503 and /readyz names it until it does`);
  }
  const readiness = new Readiness([databaseCheck(store), ...(shared ? [shared.dependency] : [])]);
  const metrics = config.metrics.port === undefined ? undefined : createServiceMetrics({ store, readiness });
  const app = await createApp({
    metrics,
    store,
    logger,
    writers,
    rateLimit,
    limiter: shared?.limiter,
    clientLimiter: shared?.clientLimiter,
    readiness,
    allowPrivateWebhookTargets: config.webhooks.allowPrivate,
    workspaceLimits: config.workspaceLimits,
    webhookTimeoutMs: config.webhooks.timeoutMs,
    http: config.http,
    cursorSecret: config.cursorSecret,
    console: config.console,
  });
  const server = createExpressServer(app, connectionOptions(config.http));
  server.maxConnections = config.http.maxConnections;
  server.on('clientError', answerClientError(logger));
  server.on('drop', reportDroppedConnections(logger, config.http.maxConnections));
  const url = await listenOn(server, config.port, config.host);
  let metricsServer: MetricsServer | undefined;
  if (metrics && config.metrics.port !== undefined) {
    metricsServer = await startMetricsServer(metrics.registry, { port: config.metrics.port, host: config.metrics.host });
  }
  const dispatcher = createDeliveryDispatcher({ store, logger, config: config.webhooks });
  dispatcher.start();
  const auditPruner = startAuditLogPruner({
    store,
    retentionDays: config.auditLogRetentionDays,
    onPruned: (removed) => logger.info({ removed, retention_days: config.auditLogRetentionDays }, 'pruned audit log entries past their retention'),
    onError: (err) => logger.warn({ err }, 'could not prune the audit log; trying again within the hour'),
  });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    // Attempts in flight finish (or are abandoned to their leases) while the server drains.
    const dispatcherStopped = dispatcher.stop();
    const prunerStopped = auditPruner.stop();
    readiness.draining = true;
    closing ??= new Promise<void>((resolve, reject) => {
      // server.close() closes the connections idle now; a keep-alive connection whose request is
      // still in flight would otherwise stay open for the keep-alive timeout after its answer.
      const closeIdle = setInterval(() => server.closeIdleConnections(), 50);
      const afterClose = async (): Promise<void> => {
        clearInterval(closeIdle);
        await dispatcherStopped;
        await prunerStopped;
        // What the server kept in memory while the lock was taken (see docs/data-producers.md).
        await finishBackgroundWriters(writers, (what, err) => logger.error({ err }, `could not write the pending ${what}`));
        await metricsServer?.close();
        metrics?.close();
        await shared?.close();
        if (!options.store) await store.close();
        logger.flush();
      };
      server.close(() => void afterClose().then(resolve, reject));
      server.closeIdleConnections();
    });
    return closing;
  };
  let draining: Promise<void> | undefined;
  const drain = (): Promise<void> => {
    draining ??= (async () => {
      readiness.draining = true;
      logger.info({ drain_delay_ms: config.http.drainDelayMs }, 'shutting down: /readyz answers 503, then the port closes');
      // Unreferenced: a close() meanwhile (a second signal) may end the process before the delay does.
      await new Promise<void>((resolve) => setTimeout(resolve, config.http.drainDelayMs).unref());
      await close();
    })();
    return draining;
  };
  return { server, store, logger, url, metricsUrl: metricsServer?.url, dispatcher, readiness, close, drain };
}
