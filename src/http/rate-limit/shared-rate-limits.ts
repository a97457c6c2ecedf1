import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { RedisConfig } from '../../config.js';
import type { DependencyCheck } from '../readiness.js';
import type { RateLimiter } from './rate-limiter.js';
import { withinRedisDeadline } from './redis-deadline.js';
import { RedisSlidingLogLimiter } from './redis-sliding-log-limiter.js';

/** The two limits of the service (README of this folder), kept in Redis and shared by every instance. */
export interface SharedRateLimits {
  /** Per workspace, policy `"workspace"`. */
  limiter: RateLimiter;
  /** Failed authentications per client address, policy `"client"`. */
  clientLimiter: RateLimiter;
  /** `redis` for `/readyz` and `/metrics`. */
  dependency: DependencyCheck;
  redis: Redis;
  /** Resolves true once connected, false if not within `timeoutMs` (the client keeps trying). */
  whenReady(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

// Reconnection: quick first retries, then at most one a second, so the service recovers within
// about a second of Redis coming back and a dead Redis is not hammered.
const reconnectDelayMs = (attempt: number): number => Math.min(50 * 2 ** attempt, 1_000);

/**
 * One Redis connection for both limits. It fails fast rather than queue: with Redis unreachable a
 * command fails at once (no offline queue) and with Redis slow it fails after `commandTimeoutMs`
 * of waiting on Redis (redis-deadline.ts);
 * the request then answers 503. A command cut off by a lost connection is not sent again after
 * reconnecting (it may have been counted already; counting it twice would refuse a request early).
 */
export function connectSharedRateLimits(
  config: RedisConfig & { url: string },
  rate: { quota: number; windowSeconds: number; authFailureQuota: number },
  logger: Logger,
  options: { clock?: 'redis' | 'caller' } = {},
): SharedRateLimits {
  // No ioredis `commandTimeout`: its timer also counts this process's own delays (an event loop
  // busy elsewhere), so each command waits through withinRedisDeadline instead.
  const redis = new Redis(config.url, {
    connectTimeout: Math.max(config.commandTimeoutMs, 1_000),
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: reconnectDelayMs,
  });
  // Report each outage once and its end once, not every reconnection attempt.
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err }, 'redis does not answer: requests answer 503 until it is back');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info('redis answers again');
  });
  const shared = { redis, keyPrefix: config.keyPrefix, windowSeconds: rate.windowSeconds, clock: options.clock, commandTimeoutMs: config.commandTimeoutMs };
  return {
    limiter: new RedisSlidingLogLimiter({ ...shared, policy: 'workspace', quota: rate.quota }),
    clientLimiter: new RedisSlidingLogLimiter({ ...shared, policy: 'client', quota: rate.authFailureQuota }),
    dependency: {
      name: 'redis',
      ping: async () => {
        await withinRedisDeadline(redis.ping(), config.commandTimeoutMs);
      },
    },
    redis,
    whenReady: (timeoutMs) => new Promise<boolean>((resolve) => {
      if (redis.status === 'ready') {
        resolve(true);
        return;
      }
      const ready = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        redis.off('ready', ready);
        resolve(false);
      }, timeoutMs);
      redis.once('ready', ready);
    }),
    close: async () => {
      try {
        await redis.quit();
      } catch {
        redis.disconnect();
      }
    },
  };
}
