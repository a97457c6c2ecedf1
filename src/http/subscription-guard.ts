import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './api-error.js';
import { Codes } from './codes.js';
import { getApiKeyCaller } from './request-context.js';
import type { SubscriptionStatus } from '../store/accounts.js';

/** `/me` and `/workspace*` keep answering so a client can see why everything else is refused. */
export function isExemptFromSubscription(readPath: string): boolean {
  const segment = readPath.split('/')[1] ?? '';
  return segment === 'me' || segment === 'workspace';
}

export function subscriptionAllows(status: SubscriptionStatus, readPath: string): boolean {
  return status === 'active' || isExemptFromSubscription(readPath);
}

export function requireActiveSubscription() {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (subscriptionAllows(getApiKeyCaller(res).principal.subscription_status, req.path)) {
      next();
      return;
    }
    next(new ApiError(402, Codes.PAYMENT_REQUIRED,
      'The workspace has no active subscription or a payment is past due; renew the plan or fix the payment.'));
  };
}
