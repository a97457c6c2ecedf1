import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ServiceError } from '../../errors/service-error.js';
import { rateLimitHeaders, type RateLimitDecision, type RateLimiter } from './rate-limiter.js';
import { checkSlidingLogOptions, slidingLogDecision, type SlidingLogOptions } from './sliding-log-limiter.js';
import { SLIDING_LOG_SCRIPT } from './sliding-log-script.js';
import { withinRedisDeadline } from './redis-deadline.js';

export interface RedisSlidingLogOptions extends SlidingLogOptions {
  redis: Redis;
  /** Prepended to `<policy>:<key>`, so several services (or test files) can share one Redis. */
  keyPrefix: string;
  /**
   * `redis` (the default): the Redis server's clock, so instances whose clocks disagree still
   * share one window. `caller`: the `nowMs` each call passes, for tests that move time by hand.
   */
  clock?: 'redis' | 'caller';
  /** How long a command may wait on Redis before the request answers 503 (redis-deadline.ts); none when absent. */
  commandTimeoutMs?: number;
}

/** Seconds a client waits after a 503 from the limiter: about one reconnection attempt. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

const COMMAND = 'wsapiSlidingLog';
type SlidingLogReply = [admitted: number, count: number, oldestUs: number, nowUs: number];
interface SlidingLogCommand {
  [COMMAND](key: string, quota: number, windowUs: number, nowUs: string, count: '0' | '1', member: string): Promise<SlidingLogReply>;
}

/**
 * The exact sliding log of `sliding-log-limiter.ts`, kept in Redis so every instance of the service
 * counts against the same log (docs/operators.md, "Running several instances"). The script runs by EVALSHA
 * (ioredis `defineCommand`), falling back to EVAL after a Redis restart emptied its script cache.
 * When Redis does not answer, the call rejects with a 503 (5030): a request is never admitted
 * without being counted.
 */
export class RedisSlidingLogLimiter implements RateLimiter {
  private readonly options: RedisSlidingLogOptions;
  private readonly redis: Redis & SlidingLogCommand;
  private readonly windowUs: number;
  // Members must be unique across instances: two admissions in the same microsecond are two entries.
  private readonly instance = randomBytes(6).toString('base64url');
  private sequence = 0;

  constructor(options: RedisSlidingLogOptions) {
    this.options = checkSlidingLogOptions(options);
    this.windowUs = options.windowSeconds * 1_000_000;
    options.redis.defineCommand(COMMAND, { lua: SLIDING_LOG_SCRIPT, numberOfKeys: 1 });
    this.redis = options.redis as Redis & SlidingLogCommand;
  }

  consume(key: string, nowMs?: number): Promise<RateLimitDecision> {
    return this.run(key, nowMs, true);
  }

  peek(key: string, nowMs?: number): Promise<RateLimitDecision> {
    return this.run(key, nowMs, false);
  }

  private async run(key: string, nowMs: number | undefined, count: boolean): Promise<RateLimitDecision> {
    const { policy, quota, keyPrefix, clock = 'redis', commandTimeoutMs } = this.options;
    const now = clock === 'caller' ? String(Math.round((nowMs ?? Date.now()) * 1000)) : '';
    const member = `${this.instance}:${(this.sequence++).toString(36)}`;
    let reply: SlidingLogReply;
    try {
      const command = this.redis[COMMAND](`${keyPrefix}${policy}:${key}`, quota, this.windowUs, now, count ? '1' : '0', member);
      reply = await (commandTimeoutMs === undefined ? command : withinRedisDeadline(command, commandTimeoutMs));
    } catch (err) {
      throw this.unavailable(err);
    }
    const [admitted, admissions, oldestUs, nowUs] = reply.map(Number) as SlidingLogReply;
    return slidingLogDecision(this.options, {
      allowed: admitted === 1,
      count: admissions,
      untilFreeMs: (oldestUs + this.windowUs - nowUs) / 1000,
    });
  }

  /**
   * 503 with the headers of a full window: while the log cannot be read nothing is admitted, so
   * `RateLimit` says none remain until `Retry-After`.
   */
  private unavailable(cause: unknown): ServiceError {
    const { policy, quota, windowSeconds } = this.options;
    const headers = rateLimitHeaders({
      allowed: false, limit: quota, remaining: 0, resetSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS, windowSeconds, policy,
    });
    const error = new ServiceError('UNAVAILABLE',
      `The rate limit cannot be checked now (its store, Redis, does not answer); nothing was done. Retry after ${UNAVAILABLE_RETRY_AFTER_SECONDS} second.`,
      null, headers);
    error.cause = cause;
    return error;
  }
}
