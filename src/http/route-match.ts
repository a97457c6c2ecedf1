import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ServiceError } from '../errors/service-error.js';
import type { OperationMatcher } from '@workspace-read-api/contract/operation-matcher.js';
import { getRouteMatch, setRouteMatch } from './request-context.js';

/**
 * The one route match of a request, before anything else: which credentials are accepted, which
 * scope or role is needed and which handler runs all depend on the operation. It never answers by
 * itself, so an unknown path is refused only once the caller is authenticated.
 */
export function matchRoute(matcher: OperationMatcher): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    setRouteMatch(res, matcher.match(req.method, req.path));
    next();
  };
}

/**
 * Mounted after the guards: 404 for a path no operation has, 405 (with `Allow`) for a method its
 * path does not take, 422 for a path parameter that is not valid percent-encoding. Only requests
 * that name an operation go on to the validator and the dispatcher.
 */
export function requireOperation(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const match = getRouteMatch(res);
    if (match.kind === 'none') {
      // baseUrl: mounted under /api/workspace too, where req.path is relative to the mount.
      next(new ServiceError('NOT_FOUND', `No route ${req.method} ${req.baseUrl}${req.path}.`));
    } else if (match.kind === 'method-not-allowed') {
      const allow = match.allow.join(', ');
      next(new ServiceError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed on this path; allowed: ${allow}.`, null, { Allow: allow }));
    } else if (match.undecodable.length > 0) {
      const [first, ...more] = match.undecodable.map((name) => ({ in: 'path' as const, name, message: 'is not valid percent-encoding' }));
      if (first) next(ServiceError.invalid(first, ...more));
    } else {
      next();
    }
  };
}
