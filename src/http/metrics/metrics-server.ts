import { createServer } from 'node:http';
import type { Registry } from 'prom-client';
import { listenOn } from '../listen.js';

export interface MetricsServer {
  url: string;
  close: () => Promise<void>;
}

/**
 * `GET /metrics` in the Prometheus text format, on a port of its own (METRICS_PORT), never on the
 * service's public port: a scraper needs no key, so what it reads stays off the address clients use.
 */
export async function startMetricsServer(registry: Registry, address: { port: number; host: string }): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://metrics').pathname;
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(path === '/metrics' ? 405 : 404, { 'Content-Type': 'text/plain; charset=utf-8', ...(path === '/metrics' ? { Allow: 'GET, HEAD' } : {}) });
      res.end(path === '/metrics' ? 'Method not allowed: GET /metrics\n' : 'Not found: this port serves GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': registry.contentType });
        res.end(text);
      },
      (err: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(`# metrics could not be collected: ${err instanceof Error ? err.message : String(err)}\n`);
      },
    );
  });
  const origin = await listenOn(server, address.port, address.host);
  return {
    url: `${origin}/metrics`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
