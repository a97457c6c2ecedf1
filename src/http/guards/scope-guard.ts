import type { NextFunction, Request, Response } from 'express';
import { ServiceError } from '../../errors/service-error.js';
import { getApiKeyCaller, matchedOperation } from '../request-context.js';
import { parseStoredScopes } from '../../keys/scopes.js';

/**
 * 403 when the key lacks a scope the operation's `security` names. A request that names no
 * operation needs none here and ends as a 404 once the remaining checks pass.
 */
export function requireOperationScopes() {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const required = [...(matchedOperation(res)?.operation.requirement.scopes ?? [])];
    const granted: readonly string[] = parseStoredScopes(getApiKeyCaller(res).principal.scopes);
    const missing = required.filter((s) => !granted.includes(s));
    if (missing.length > 0) {
      next(new ServiceError('SCOPE_MISSING', `The API key lacks the scope required for this request: ${missing.join(', ')}.`,
        { required, missing }));
      return;
    }
    next();
  };
}
