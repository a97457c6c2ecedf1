/**
 * The seam between HTTP and rate-limit storage: the in-process SlidingLogLimiter (one instance)
 * and RedisSlidingLogLimiter (several instances sharing one Redis) answer the same decisions.
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
  /**
   * Counts the request if admitted. Rejects with a 503 ServiceError (5030) when the decision cannot
   * be taken (a shared store that does not answer): nothing is ever admitted unchecked.
   */
  consume(key: string, nowMs?: number): Promise<RateLimitDecision>;
  /** Same answer as consume would give on its state, without counting anything. */
  peek(key: string, nowMs?: number): Promise<RateLimitDecision>;
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

/** A `peek` as the usage per day shows it: what the workspace may still spend now. */
export function headroomOf(d: RateLimitDecision): { limit: number; window_seconds: number; remaining: number; reset_seconds: number } {
  return { limit: d.limit, window_seconds: d.windowSeconds, remaining: d.remaining, reset_seconds: d.resetSeconds };
}
