import type { NextFunction, Request, Response } from 'express';
import { ServiceError } from '../../errors/service-error.js';
import { callerWorkspaceId } from '../request-context.js';
import { rateLimitHeaders, type RateLimiter } from '../rate-limit/rate-limiter.js';

/** Counts the request against its workspace (shared by all of its keys and member tokens) and sets the headers. */
export function limitPerWorkspace(deps: { limiter: RateLimiter; now: () => Date }) {
  return async (_req: Request, res: Response, next: NextFunction): Promise<void> => {
    const decision = await deps.limiter.consume(callerWorkspaceId(res), deps.now().getTime());
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) {
      next(new ServiceError('RATE_LIMITED', `Rate limit exceeded: ${decision.limit} requests per ${decision.windowSeconds} seconds for this workspace; retry in ${decision.resetSeconds} seconds.`,
        null, headers));
      return;
    }
    res.set(headers);
    next();
  };
}
