import type { ServerOptions } from 'node:http';
import type { Logger } from 'pino';
import type { HttpServerConfig } from '../config.js';

/** How often refused connections are summed up in the log while they keep coming. */
const DROP_REPORT_INTERVAL_MS = 60_000;

/** The timeouts of `src/config.ts` as options of `http.createServer`. */
export function connectionOptions(config: HttpServerConfig): ServerOptions {
  return {
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Node looks for requests past their timeouts every 30 s by default, which would let a 10 s
    // headers timeout run to 40 s; checking four times per headers timeout (at most once a second)
    // enforces both timeouts to within a quarter of the headers timeout.
    connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(config.headersTimeoutMs / 4))),
  };
}

/**
 * Node closes a connection beyond `server.maxConnections` as soon as it is accepted. The first
 * refusal is logged at once, later ones as a count once a minute, so a flood of connections
 * cannot flood the log as well.
 */
export function reportDroppedConnections(logger: Logger, maxConnections: number): () => void {
  let unreported = 0;
  let reporting: NodeJS.Timeout | undefined;
  return () => {
    if (reporting) {
      unreported += 1;
      return;
    }
    logger.warn({ max_connections: maxConnections }, 'refused a connection: the server holds its maximum of open connections');
    reporting = setInterval(() => {
      if (unreported === 0) {
        clearInterval(reporting);
        reporting = undefined;
        return;
      }
      logger.warn({ max_connections: maxConnections, refused: unreported }, 'refused connections: the server holds its maximum of open connections');
      unreported = 0;
    }, DROP_REPORT_INTERVAL_MS).unref();
  };
}
