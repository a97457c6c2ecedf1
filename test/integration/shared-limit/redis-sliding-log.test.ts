import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import pino from 'pino';
import { SlidingLogLimiter } from '../../../src/http/rate-limit/sliding-log-limiter.js';
import { connectSharedRateLimits, type SharedRateLimits } from '../../../src/http/rate-limit/shared-rate-limits.js';
import { RedisSlidingLogLimiter } from '../../../src/http/rate-limit/redis-sliding-log-limiter.js';
import type { RateLimitDecision } from '../../../src/http/rate-limit/rate-limiter.js';
import { ServiceError } from '../../../src/errors/service-error.js';
import { describeWithRedis, startRedisServer, type RedisServer } from '../../support/redis-server.js';

const silent = pino({ level: 'silent' });
let server: RedisServer;
const connections: SharedRateLimits[] = [];

/** A connection to the file's Redis under a prefix of its own, closed when the file ends. */
async function connect(options: { quota?: number; windowSeconds?: number; clock?: 'redis' | 'caller'; url?: string; commandTimeoutMs?: number } = {}) {
  const keyPrefix = `test:${randomUUID()}:`;
  const shared = connectSharedRateLimits(
    // Long enough that a busy machine's pause between a reply and its read is not taken for silence.
    { url: options.url ?? server.url, keyPrefix, commandTimeoutMs: options.commandTimeoutMs ?? 2_000 },
    { quota: options.quota ?? 120, windowSeconds: options.windowSeconds ?? 60, authFailureQuota: 30 },
    silent,
    { clock: options.clock },
  );
  connections.push(shared);
  if (options.url === undefined) expect(await shared.whenReady(10_000)).toBe(true);
  return { ...shared, keyPrefix };
}

describeWithRedis('the sliding log in Redis', () => {
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    for (const c of connections) await c.close();
    await server.remove();
  });

  it('answers every sequence of calls exactly as the in-process log does (same decisions, same headers)', async () => {
    const step = fc.record({
      key: fc.constantFrom('a', 'b'),
      // Standing still, small moves, exactly a window (the boundary) and around it; time never runs
      // back here (the next test steps it back).
      advanceMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1_500 }), fc.constantFrom(1_000, 2_000), fc.integer({ min: 1_900, max: 2_100 })),
      count: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 2 }), fc.array(step, { minLength: 1, maxLength: 40 }),
        async (quota, windowSeconds, steps) => {
          const local = new SlidingLogLimiter({ policy: 'workspace', quota, windowSeconds });
          const { limiter: shared } = await connect({ quota, windowSeconds, clock: 'caller' });
          let now = 1_700_000_000_000;
          for (const s of steps) {
            now += s.advanceMs;
            const [expected, actual]: RateLimitDecision[] = s.count
              ? [await local.consume(s.key, now), await shared.consume(s.key, now)]
              : [await local.peek(s.key, now), await shared.peek(s.key, now)];
            expect(actual).toEqual(expected);
          }
        }),
      { numRuns: 60 },
    );
  });

  it('rolls exactly: a slot frees window ms after its admission, never at a fixed boundary', async () => {
    const { limiter } = await connect({ clock: 'caller' });
    const t0 = 1_700_000_000_000;
    const burst = async (n: number, at: number) => {
      let admitted = 0;
      for (let i = 0; i < n; i++) if ((await limiter.consume('ws', at)).allowed) admitted++;
      return admitted;
    };
    expect(await burst(60, t0)).toBe(60);
    expect(await burst(60, t0 + 30_000)).toBe(60);
    expect(await limiter.consume('ws', t0 + 59_999)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 1 });
    expect(await burst(61, t0 + 60_000)).toBe(60);
    expect(await limiter.consume('ws', t0 + 60_000)).toMatchObject({ allowed: false, resetSeconds: 30 });
    // A clock stepping back does not reopen the window.
    expect(await limiter.consume('ws', t0)).toMatchObject({ allowed: false, resetSeconds: 30 });
  });

  it('reads the Redis server\'s clock: instances whose own clocks are an hour apart still share one window', async () => {
    const skewed = async (clock: 'redis' | 'caller') => {
      const [a, b] = [await connect({ clock }), await connect({ clock })];
      // Both instances write the same log: the second connection uses the first one's prefix.
      const other = new RedisSlidingLogLimiter({ redis: b.redis, keyPrefix: a.keyPrefix, policy: 'workspace', quota: 120, windowSeconds: 60, clock });
      let admitted = 0;
      for (let i = 0; i < 150; i++) {
        const now = Date.now();
        const decision = i % 2 === 0 ? await a.limiter.consume('ws', now) : await other.consume('ws', now + 3_600_000);
        if (decision.allowed) admitted++;
      }
      return admitted;
    };
    // Trusting each instance's clock, the one an hour ahead sees the other's admissions as expired.
    expect(await skewed('caller')).toBeGreaterThan(120);
    expect(await skewed('redis')).toBe(120);
  });

  it('keeps at most the quota per key, under the configured prefix, expiring a window after the newest admission', async () => {
    const { limiter, clientLimiter, redis, keyPrefix } = await connect({ quota: 5, windowSeconds: 10 });
    for (let i = 0; i < 20; i++) await limiter.consume('ws');
    await clientLimiter.consume('203.0.113.7');
    expect((await redis.keys(`${keyPrefix}*`)).sort()).toEqual([`${keyPrefix}client:203.0.113.7`, `${keyPrefix}workspace:ws`]);
    expect(await redis.zcard(`${keyPrefix}workspace:ws`)).toBe(5);
    const ttl = await redis.pttl(`${keyPrefix}workspace:ws`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(10_000);
    // Peeking stores nothing.
    await limiter.peek('quiet');
    expect(await redis.exists(`${keyPrefix}workspace:quiet`)).toBe(0);
  });

  it('when Redis does not answer, refuses with 503 (5030) and the headers of a full window, never a decision', async () => {
    const closedPort = await import('../../../scripts/postgres-cluster.js').then((m) => m.freePort());
    const { limiter, clientLimiter } = await connect({ url: `redis://127.0.0.1:${closedPort}` });
    for (const [l, policy, q] of [[limiter, 'workspace', 120], [clientLimiter, 'client', 30]] as const) {
      const refusal = await l.consume('ws').then(() => undefined, (err: unknown) => err);
      expect(refusal).toBeInstanceOf(ServiceError);
      expect(refusal).toMatchObject({
        status: 503,
        code: 5030,
        headers: { 'Retry-After': '1', 'RateLimit-Policy': `"${policy}";q=${q};w=60`, RateLimit: `"${policy}";r=0;t=1` },
      });
    }
  });

  it('when Redis accepts the connection but does not answer, gives up after the command timeout', async () => {
    const { limiter } = await connect({ commandTimeoutMs: 250 });
    server.pause();
    try {
      const refusal = await limiter.consume('ws').then(() => undefined, (err: unknown) => err);
      expect(refusal).toMatchObject({ status: 503, code: 5030 });
    } finally {
      server.resume();
    }
    expect((await limiter.consume('ws')).allowed).toBe(true);
  });
});
