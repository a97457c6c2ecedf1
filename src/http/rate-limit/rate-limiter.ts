/**
 * The seam between HTTP and rate-limit storage. The in-process SlidingLogLimiter
 * implements it today; a shared store (e.g. Redis) can replace it without touching callers.
 */
export interface RateLimitDecision {
  allowed: boolean;
  /** The quota: requests admitted per window. */
  limit: number;
  /** Left after this request is counted; never negative. */
  remaining: number;
  /** Seconds until the oldest admission still in the window leaves it; 0 when the window is empty, >= 1 on a rejection. */
  resetSeconds: number;
  windowSeconds: number;
  /** Policy name carried in the headers, e.g. "workspace" or "client". */
  policy: string;
}

export interface RateLimiter {
  /** Counts the request if admitted. */
  consume(key: string, nowMs?: number): RateLimitDecision;
  /** Same answer as consume would give on its state, without counting anything. */
  peek(key: string, nowMs?: number): RateLimitDecision;
}

/** The IETF RateLimit / RateLimit-Policy header fields, plus Retry-After on a rejection. */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"${d.policy}";q=${d.limit};w=${d.windowSeconds}`,
    RateLimit: `"${d.policy}";r=${d.remaining};t=${d.resetSeconds}`,
  };
  if (!d.allowed) headers['Retry-After'] = String(d.resetSeconds);
  return headers;
}
