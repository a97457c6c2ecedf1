import type { components } from '../../generated/openapi.js';
import type { Store } from '../store/index.js';
import type { PendingRequestCounts } from './api-request-counter.js';
import { calendarMonthOf, periodDays } from './billing-period.js';
import { DAY_MS } from '../analytics/periods.js';

export type WorkspaceUsage = components['schemas']['WorkspaceUsage'];
type UsageMeter = components['schemas']['UsageMeter'];

function meter(used: number, limit: number | null): UsageMeter {
  return { used, limit, remaining: limit === null ? null : Math.max(0, limit - used) };
}

/**
 * Usage in the plan's current period (the UTC calendar month when no plan is on record). API
 * requests add the counts this process has not written yet, so a caller sees its own requests,
 * this one included.
 */
export async function readUsage(store: Store, requestCounts: PendingRequestCounts, workspaceId: string, now: Date): Promise<WorkspaceUsage> {
  const plan = await store.workspaceProfile.getPlan(workspaceId);
  const period = plan ? { start: plan.period_start, end: plan.period_end } : calendarMonthOf(now);
  const { fromDay, toDay } = periodDays(period);
  const from = new Date(fromDay * DAY_MS).toISOString();
  const until = new Date((toDay + 1) * DAY_MS).toISOString();
  const [requests, prompts, articles] = await Promise.all([
    requestCounts.served(workspaceId, fromDay, toDay, () => store.workspaceProfile.sumApiRequests(workspaceId, fromDay, toDay)),
    store.workspaceProfile.countPrompts(workspaceId),
    store.workspaceProfile.countArticlesWritten(workspaceId, from, until),
  ]);
  return {
    period,
    prompts_tracked: meter(prompts, plan?.tracked_prompts_limit ?? null),
    articles_generated: meter(articles, plan?.articles_per_month_limit ?? null),
    api_requests_served: requests,
  };
}
