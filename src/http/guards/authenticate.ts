import type { NextFunction, Request, Response } from 'express';
import { ServiceError } from '../../errors/service-error.js';
import { setCaller } from '../request-context.js';
import { checkApiKey } from '../../keys/api-keys.js';
import type { Store } from '../../store/index.js';
import { rateLimitHeaders, type RateLimiter } from '../rate-limit/rate-limiter.js';
import { presentedCredential } from './presented-credential.js';
import { clientAddressKey } from '../rate-limit/client-address.js';

/**
 * The key from `Authorization: Bearer <key>` or `X-API-KEY: <key>`; undefined when neither is sent.
 * Ambiguous headers never get here: refuseAmbiguousCredentials answers them first.
 */
export function presentedKey(req: Request): string | undefined {
  const presented = presentedCredential(req);
  return presented.kind === 'one' ? presented.value : undefined;
}

/**
 * 401 for a missing or bad key. Failed attempts count against the client address only (never a
 * workspace); beyond that budget they answer 429, which throttles key guessing.
 */
export function authenticateApiKey(deps: {
  store: Store;
  clientLimiter: RateLimiter;
  now: () => Date;
  recordUse: (keyId: string, now: Date) => void;
}) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const key = presentedKey(req);
    const now = deps.now();
    const check = key === undefined ? undefined : await checkApiKey(deps.store, key, now);
    if (check?.ok) {
      setCaller(res, { kind: 'api_key', principal: check.principal });
      deps.recordUse(check.principal.key_id, now);
      next();
      return;
    }
    next(await refuseAuthentication(req, deps.clientLimiter, now, key === undefined
      ? new ServiceError('KEY_MISSING', 'No API key: send `Authorization: Bearer <key>` or `X-API-KEY: <key>`.')
      : new ServiceError('KEY_INVALID', 'The API key is invalid, revoked or expired.')));
  };
}

/**
 * A failed authentication counts against the client's address (an IPv6 client's /64,
 * client-address.ts); past that budget it answers 429
 * instead of `refusal`, which throttles guessing of keys and tokens alike.
 */
export async function refuseAuthentication(req: Request, clientLimiter: RateLimiter, now: Date, refusal: ServiceError): Promise<ServiceError> {
  const decision = await clientLimiter.consume(clientAddressKey(req.ip), now.getTime());
  if (decision.allowed) return refusal;
  return new ServiceError('RATE_LIMITED', `Too many failed authentications from this address; retry in ${decision.resetSeconds} seconds.`,
    null, rateLimitHeaders(decision));
}
