import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { describe, it } from 'vitest';
import { freePort } from './free-port.js';
import { acceptsConnections } from './raw-http.js';
import { until } from './wait.js';

/**
 * A throwaway `redis-server` from the system's binary, on a free loopback port, persisting
 * nothing. `stop()` and `start()` take it away and bring it back on the same port (an outage);
 * `pause()` and `resume()` freeze it (a Redis that accepts connections but does not answer);
 * `remove()` stops it for good and deletes its directory. `forgetAll()` deletes every key: a test
 * that spends a budget every instance shares (the failed authentications of 127.0.0.1) starts
 * from none and gives it back.
 */
export interface RedisServer {
  url: string;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  pause(): void;
  resume(): void;
  remove(): Promise<void>;
  forgetAll(): Promise<void>;
}

const INSTALL_HINT = 'install it (Debian/Ubuntu: `apt-get install -y redis-server`; it starts nothing by itself)';

/** Why the Redis tests cannot run here, or undefined when `redis-server` is on PATH. */
function redisServerMissing(): string | undefined {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return probe.error || probe.status !== 0 ? `redis-server is not on PATH: ${INSTALL_HINT}` : undefined;
}

/**
 * `describe` for tests that need `redis-server`. Without the binary they are skipped with a notice
 * that cannot be missed, except under CI, where the missing binary fails the file.
 */
export function describeWithRedis(name: string, body: () => void): void {
  const missing = redisServerMissing();
  if (missing === undefined) {
    describe(name, body);
    return;
  }
  if (process.env.CI) {
    describe(name, () => {
      it('needs redis-server', () => {
        throw new Error(`CI is set and ${missing}`);
      });
    });
    return;
  }
  const line = '='.repeat(100);
  console.warn(`\n${line}\nSKIPPING THE REDIS TESTS OF "${name}": ${missing}\n${line}\n`);
  describe.skip(name, body);
}


/**
 * `persist`: an append-only file written at every command, so a stopped and started server keeps
 * its windows (a restart that forgot them would free every workspace's quota).
 */
export async function startRedisServer(options: { persist?: boolean } = {}): Promise<RedisServer> {
  const missing = redisServerMissing();
  if (missing !== undefined) throw new Error(missing);
  const dir = mkdtempSync(path.join(tmpdir(), 'wsapi-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    if (child) return;
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', options.persist ? 'yes' : 'no', '--appendfsync', 'always', '--dir', dir, '--loglevel', 'warning'];
    const started = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child = started;
    started.once('exit', () => {
      if (child === started) child = undefined;
    });
    await until(() => acceptsConnections(port), 10_000, `redis-server on port ${port}`, 20);
  };

  const stop = async (): Promise<void> => {
    const running = child;
    if (!running) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    // A paused server does not act on SIGTERM until it runs again.
    running.kill('SIGCONT');
    running.kill('SIGTERM');
    await exited;
    await until(async () => !(await acceptsConnections(port)), 10_000, `port ${port} to close`, 20);
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    forgetAll: async () => {
      const client = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await client.connect();
        await client.flushall();
      } finally {
        client.disconnect();
      }
    },
    remove: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
