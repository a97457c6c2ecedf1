import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';

/**
 * Instances of the service as a deployment runs them, each started as `serve` starts (`startServer`
 * over `loadConfig`, opening its own store): its own pool of connections to the database at
 * `DATABASE_URL`, its own Redis connection, its own HTTP server on a loopback port. They count in
 * one Redis under one key prefix (fresh for each call, so files sharing a Redis never meet).
 * `close()` on each stops it.
 */
export async function startInstances(count: number, env: Record<string, string>): Promise<RunningServer[]> {
  const shared = { REDIS_KEY_PREFIX: `test:${randomUUID()}:`, ...env, PORT: '0', HOST: '127.0.0.1' };
  const instances: RunningServer[] = [];
  for (let i = 0; i < count; i++) {
    const running = await startServer(loadConfig(shared), { logger: pino({ level: 'silent' }) });
    instances.push({
      ...running,
      close: async () => {
        running.server.closeAllConnections();
        await running.close();
      },
    });
  }
  return instances;
}
