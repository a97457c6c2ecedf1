import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { openStore, type Store } from './store/index.js';
import { createLogger } from './logger.js';
import { createBackgroundWriters, finishBackgroundWriters } from './http/background-writers.js';
import { createDeliveryDispatcher, type DeliveryDispatcher } from './webhooks/delivery/index.js';
import { answerClientError } from './http/client-error.js';
import { connectionOptions, reportDroppedConnections } from './http/connection-limits.js';

export interface RunningServer {
  server: Server;
  store: Store;
  logger: Logger;
  url: string;
  /** Sends webhook deliveries while the server runs. */
  dispatcher: DeliveryDispatcher;
  close: () => Promise<void>;
}

/** The process side of the service: database, listen, graceful shutdown. */
export async function startServer(config: Config, options: { store?: Store; logger?: Logger } = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger({ level: config.logLevel, file: config.logFile });
  const store = options.store ?? (await openStore(config.databaseAddress, { serving: true }));
  const writers = createBackgroundWriters(store);
  const app = await createApp({
    store,
    logger,
    writers,
    rateLimit: {
      quota: config.rateLimitQuota,
      windowSeconds: config.rateLimitWindowSeconds,
      authFailureQuota: config.authFailureQuota,
    },
    allowPrivateWebhookTargets: config.webhooks.allowPrivate,
    webhookTimeoutMs: config.webhooks.timeoutMs,
    http: config.http,
  });
  const server = createServer(connectionOptions(config.http), app);
  server.maxConnections = config.http.maxConnections;
  server.on('clientError', answerClientError(logger));
  server.on('drop', reportDroppedConnections(logger, config.http.maxConnections));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const dispatcher = createDeliveryDispatcher({ store, logger, config: config.webhooks });
  dispatcher.start();
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    // Attempts in flight finish (or are abandoned to their leases) while the server drains.
    const dispatcherStopped = dispatcher.stop();
    closing ??= new Promise<void>((resolve) => {
      server.close(async () => {
        await dispatcherStopped;
        // What the server kept in memory while the lock was taken (see README, "Importing data").
        await finishBackgroundWriters(writers, (what, err) => logger.error({ err }, `could not write the pending ${what}`));
        if (!options.store) await store.close();
        logger.flush();
        resolve();
      });
      server.closeIdleConnections();
    });
    return closing;
  };
  return { server, store, logger, url: `http://${host}:${port}`, dispatcher, close };
}
