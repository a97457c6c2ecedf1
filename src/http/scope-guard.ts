import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './api-error.js';
import { Codes } from './codes.js';
import { getApiKeyCaller } from './request-context.js';
import { parseStoredScopes, requiredScopesFor } from '../keys/scopes.js';

/** 403 when the key lacks the scope of the path prefix (mounted under /api/v1, so req.path is relative). */
export function requireScopeForPath() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const required = requiredScopesFor(req.path);
    const granted = parseStoredScopes(getApiKeyCaller(res).principal.scopes);
    const missing = required.filter((s) => !granted.includes(s));
    if (missing.length > 0) {
      next(new ApiError(403, Codes.SCOPE_MISSING,
        `The API key lacks the scope required for this request: ${missing.join(', ')}.`,
        { required, missing }));
      return;
    }
    next();
  };
}
