import type { NextFunction, Request, Response } from 'express';
import { ServiceError } from '../../errors/service-error.js';
import { getApiKeyCaller, matchedOperation } from '../request-context.js';

/**
 * 402 without an active subscription, except on the operations the contract marks
 * `x-subscription-exempt` (`/me`, `/workspace`...), so a client can see why everything else is
 * refused. A request that names no operation goes on to its 404.
 */
export function requireActiveSubscription() {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const operation = matchedOperation(res)?.operation;
    if (!operation || operation.requirement.subscriptionExempt || getApiKeyCaller(res).principal.subscription_status === 'active') {
      next();
      return;
    }
    next(new ServiceError('PAYMENT_REQUIRED', 'The workspace has no active subscription or a payment is past due; renew the plan or fix the payment.'));
  };
}
