import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';

export interface SlidingLogOptions {
  policy: string;
  quota: number;
  windowSeconds: number;
}

/** Admission timestamps of one key, oldest first, in a ring that never exceeds the quota. */
interface Log {
  buf: Float64Array;
  head: number;
  count: number;
}

// Most keys (one-off bad clients, quiet workspaces) never approach the quota, so rings
// start small and double up to it rather than costing quota * 8 bytes each up front.
const INITIAL_CAPACITY = 8;
// Caps the eviction work a single call can do, so a mass expiry (100k idle keys) is
// spread over many calls instead of stalling one request; still outpaces key creation.
const MAX_EVICTIONS_PER_CALL = 64;
// Header values are sf-strings: keep the policy name free of quotes and backslashes.
const POLICY_NAME = /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * Exact rolling-window limiter: a request is admitted iff fewer than `quota` admissions
 * happened in the last `windowSeconds` (interval (now - window, now]). Exact within one
 * process: each call runs to completion before the next (no await inside).
 */
export class SlidingLogLimiter implements RateLimiter {
  readonly policy: string;
  readonly quota: number;
  readonly windowSeconds: number;
  private readonly windowMs: number;
  // Map keeps insertion order; re-inserting a key on every admission keeps it ordered by
  // newest admission, so idle keys collect at the front and eviction never scans live ones.
  private readonly logs = new Map<string, Log>();
  // Wall clocks can step backwards (NTP); the ring and the eviction order rely on sorted time.
  private lastNowMs = -Infinity;

  constructor(options: SlidingLogOptions) {
    const { policy, quota, windowSeconds } = checkSlidingLogOptions(options);
    this.policy = policy;
    this.quota = quota;
    this.windowSeconds = windowSeconds;
    this.windowMs = windowSeconds * 1000;
  }

  /** Keys currently held; exposed so tests and metrics can see that memory stays bounded. */
  get size(): number {
    return this.logs.size;
  }

  // Async only to fit the interface: the body has no await, so a call still runs whole before
  // the next one starts, which is what keeps it exact within the process.
  async consume(key: string, nowMs: number = Date.now()): Promise<RateLimitDecision> {
    const now = this.clock(nowMs);
    this.evictIdle(now, MAX_EVICTIONS_PER_CALL);

    let log = this.logs.get(key);
    if (log) this.expire(log, now);
    if (log && log.count >= this.quota) return this.decide(log, now, false);

    if (!log) log = { buf: new Float64Array(Math.min(INITIAL_CAPACITY, this.quota)), head: 0, count: 0 };
    this.push(log, now);
    this.logs.delete(key);
    this.logs.set(key, log);
    return this.decide(log, now, true);
  }

  async peek(key: string, nowMs: number = Date.now()): Promise<RateLimitDecision> {
    const now = this.clock(nowMs);
    const log = this.logs.get(key);
    if (!log) return { ...this.base(), allowed: true, remaining: this.quota, resetSeconds: 0 };
    // Dropping expired timestamps changes no observable count, so peek may do it.
    this.expire(log, now);
    return this.decide(log, now, log.count < this.quota);
  }

  /** Evicts every idle key now; calls already do this incrementally, this is for timers. */
  sweep(nowMs: number = Date.now()): void {
    this.evictIdle(this.clock(nowMs), Infinity);
  }

  private clock(nowMs: number): number {
    if (nowMs > this.lastNowMs) this.lastNowMs = nowMs;
    return this.lastNowMs;
  }

  private evictIdle(now: number, max: number): void {
    const cutoff = now - this.windowMs;
    let evicted = 0;
    for (const [key, log] of this.logs) {
      if (evicted >= max || newest(log) > cutoff) return;
      this.logs.delete(key);
      evicted++;
    }
  }

  private expire(log: Log, now: number): void {
    const cutoff = now - this.windowMs;
    const cap = log.buf.length;
    while (log.count > 0 && log.buf[log.head]! <= cutoff) {
      log.head = (log.head + 1) % cap;
      log.count--;
    }
  }

  private push(log: Log, now: number): void {
    if (log.count === log.buf.length) {
      // Only reached below the quota (callers reject at it); amortised O(1) like any doubling array.
      const grown = new Float64Array(Math.min(log.buf.length * 2, this.quota));
      for (let i = 0; i < log.count; i++) grown[i] = log.buf[(log.head + i) % log.buf.length]!;
      log.buf = grown;
      log.head = 0;
    }
    log.buf[(log.head + log.count) % log.buf.length] = now;
    log.count++;
  }

  private decide(log: Log, now: number, allowed: boolean): RateLimitDecision {
    const untilFreeMs = log.count === 0 ? 0 : log.buf[log.head]! + this.windowMs - now;
    return slidingLogDecision(this, { allowed, count: log.count, untilFreeMs });
  }

  private base(): Pick<RateLimitDecision, 'limit' | 'windowSeconds' | 'policy'> {
    return { limit: this.quota, windowSeconds: this.windowSeconds, policy: this.policy };
  }
}

/** The options both sliding logs (in process and in Redis) accept, checked the same way. */
export function checkSlidingLogOptions<T extends SlidingLogOptions>(options: T): T {
  const { policy, quota, windowSeconds } = options;
  if (!POLICY_NAME.test(policy)) throw new RangeError(`policy must be printable ASCII without quotes or backslashes, got ${JSON.stringify(policy)}`);
  if (!Number.isSafeInteger(quota) || quota < 1) throw new RangeError(`quota must be an integer >= 1, got ${quota}`);
  // Integer because the RateLimit-Policy w parameter is an integer number of seconds.
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds < 1) {
    throw new RangeError(`windowSeconds must be an integer >= 1, got ${windowSeconds}`);
  }
  return options;
}

/**
 * The decision of a sliding log holding `count` admissions whose oldest leaves the window in
 * `untilFreeMs`: one formula for both stores, so they answer the same headers.
 */
export function slidingLogDecision(
  options: SlidingLogOptions,
  state: { allowed: boolean; count: number; untilFreeMs: number },
): RateLimitDecision {
  // Max with 1: a non-empty window always frees its slot strictly in the future, even if
  // float rounding makes the difference look like zero.
  const resetSeconds = state.count === 0 ? 0 : Math.max(1, Math.ceil(state.untilFreeMs / 1000));
  return {
    allowed: state.allowed,
    limit: options.quota,
    remaining: Math.max(0, options.quota - state.count),
    resetSeconds,
    windowSeconds: options.windowSeconds,
    policy: options.policy,
  };
}

function newest(log: Log): number {
  return log.count === 0 ? -Infinity : log.buf[(log.head + log.count - 1) % log.buf.length]!;
}
