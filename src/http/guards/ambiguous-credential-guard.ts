import type { NextFunction, Request, Response } from 'express';
import { ServiceError } from '../../errors/service-error.js';
import { refuseAuthentication } from './authenticate.js';
import { presentedCredential } from './presented-credential.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';

/**
 * 401 (4022) before any other check when the credential headers are ambiguous: two different
 * credentials, or `Authorization` in a scheme other than Bearer. Both APIs mount it, so keys and
 * member tokens follow one rule. It counts as a failed authentication of the client address.
 */
export function refuseAmbiguousCredentials(deps: { clientLimiter: RateLimiter; now: () => Date }) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    const presented = presentedCredential(req);
    if (presented.kind !== 'refused') {
      next();
      return;
    }
    next(await refuseAuthentication(req, deps.clientLimiter, deps.now(), new ServiceError('KEY_INVALID', presented.message)));
  };
}
