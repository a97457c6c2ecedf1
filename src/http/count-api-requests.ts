import type { NextFunction, Request, Response } from 'express';
import type { ApiRequestCounter } from '../workspace/api-request-counter.js';
import { getApiKeyCaller } from './request-context.js';

/** Counts each request that got past authentication and the rate limit, for the workspace's usage. */
export function countApiRequests(deps: { counter: ApiRequestCounter; now: () => Date }) {
  const { counter } = deps;
  return (_req: Request, res: Response, next: NextFunction): void => {
    counter.record(getApiKeyCaller(res).principal.workspace_id, deps.now());
    next();
  };
}
