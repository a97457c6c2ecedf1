import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server.js';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { startConfiguredServer } from '../../support/process-server.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../../support/redis-server.js';

const COMMAND_TIMEOUT_MS = 100;

/** Keeps this process's event loop busy for `ms`, as a long synchronous piece of work does. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) { /* busy */ }
}

/**
 * A loopback relay in front of Redis. Once armed, it passes the next command on and, right after it
 * has passed Redis's answer back, keeps this process's event loop busy for `ms`: the answer waits
 * in the service's socket, in time, but the service's process cannot read it until the loop is
 * free again. (Busy from the command on, the test depended on Redis answering within `ms` on a
 * loaded machine, and failed when it did not.)
 */
async function relayBusyingTheLoop(redisPort: number): Promise<{ url: string; arm: (ms: number) => void; close: () => Promise<void> }> {
  let busyMs = 0;
  /** Set once the armed command has gone to Redis: the loop turns busy after its answer is passed back. */
  let afterAnswerMs = 0;
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(redisPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
    }
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      if (afterAnswerMs > 0) {
        const ms = afterAnswerMs;
        afterAnswerMs = 0;
        busyFor(ms);
      }
    });
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      if (busyMs > 0 && chunk.includes('sha')) {
        afterAnswerMs = busyMs;
        busyMs = 0;
      }
    });
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as net.AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    arm: (ms) => { busyMs = ms; },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

let redis: RedisServer;
let relay: Awaited<ReturnType<typeof relayBusyingTheLoop>>;
let running: RunningServer & { store: SqliteStore };

describeWithRedis('REDIS_COMMAND_TIMEOUT_MS and a busy event loop', () => {
  beforeAll(async () => {
    redis = await startRedisServer();
    relay = await relayBusyingTheLoop(redis.port);
    running = await startConfiguredServer({ REDIS_URL: relay.url, REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS) });
  });
  afterAll(async () => {
    await running?.close();
    await relay?.close();
    await redis?.remove();
  });

  it('when the process is busy for longer than the timeout while Redis answers in time, the request is admitted, not 503', async () => {
    const ws = await createTestWorkspace(running.store);
    expect((await send(running.url, { path: '/api/v1/me' }, ws.key)).status).toBe(200);
    relay.arm(COMMAND_TIMEOUT_MS * 3);
    const res = await send(running.url, { path: '/api/v1/me' }, ws.key);
    expect([res.status, (res.body as { code: number }).code]).toEqual([200, 4020]);
  });

  it('when Redis itself does not answer within the timeout, still answers 503 (5030)', async () => {
    const ws = await createTestWorkspace(running.store);
    redis.pause();
    try {
      const started = performance.now();
      const res = await send(running.url, { path: '/api/v1/me' }, ws.key);
      expect([res.status, (res.body as { code: number }).code]).toEqual([503, 5030]);
      expect(performance.now() - started).toBeLessThan(COMMAND_TIMEOUT_MS * 20);
    } finally {
      redis.resume();
    }
  });
});
