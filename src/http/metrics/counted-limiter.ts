import { Codes } from '../../errors/codes.js';
import { ServiceError } from '../../errors/service-error.js';
import type { RateLimitDecision, RateLimiter } from '../rate-limit/rate-limiter.js';
import type { ServiceMetrics } from './service-metrics.js';

/** `limiter`, with each decision counted by policy: admitted, refused, or unavailable (a 503). */
export function countedLimiter(limiter: RateLimiter, policy: string, metrics: ServiceMetrics): RateLimiter {
  const counted = async (decide: Promise<RateLimitDecision>): Promise<RateLimitDecision> => {
    try {
      const decision = await decide;
      metrics.rateLimitDecisions.inc({ policy, decision: decision.allowed ? 'admitted' : 'refused' });
      return decision;
    } catch (err) {
      if (err instanceof ServiceError && err.code === Codes.UNAVAILABLE) metrics.rateLimitDecisions.inc({ policy, decision: 'unavailable' });
      throw err;
    }
  };
  return {
    consume: (key, nowMs) => counted(limiter.consume(key, nowMs)),
    peek: (key, nowMs) => limiter.peek(key, nowMs),
  };
}
