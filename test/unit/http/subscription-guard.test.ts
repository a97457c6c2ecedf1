import { describe, expect, it } from 'vitest';
import { isExemptFromSubscription, subscriptionAllows } from '../../../src/http/subscription-guard.js';
import type { SubscriptionStatus } from '../../../src/store/accounts.js';

const READS = ['/visibility/prompts', '/content-map/topics', '/content/articles/1', '/iq/products', '/anything'];
const EXEMPT = ['/me', '/workspace', '/workspace/plan', '/workspace/usage'];
const INACTIVE: SubscriptionStatus[] = ['past_due', 'canceled', 'none'];

describe('subscriptionAllows', () => {
  it('allows every path for an active workspace', () => {
    for (const path of [...READS, ...EXEMPT]) expect(subscriptionAllows('active', path)).toBe(true);
  });

  it('refuses every read outside /me and /workspace for a past-due, canceled or plan-less workspace', () => {
    for (const status of INACTIVE) for (const path of READS) expect(subscriptionAllows(status, path), `${status} ${path}`).toBe(false);
  });

  it('keeps /me and /workspace (and below) answering whatever the status', () => {
    for (const status of INACTIVE) for (const path of EXEMPT) expect(subscriptionAllows(status, path), `${status} ${path}`).toBe(true);
  });

  it('exempts whole segments only', () => {
    expect(isExemptFromSubscription('/workspaces')).toBe(false);
    expect(isExemptFromSubscription('/meta')).toBe(false);
    expect(isExemptFromSubscription('/me/')).toBe(true);
  });
});
