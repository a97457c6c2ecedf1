import type { components } from '../../generated/openapi.js';
import type { Store } from '../store/index.js';
import type { PendingRequestCounts } from './api-request-counter.js';
import { dateOfDay, dayOf } from '../analytics/periods.js';

export type DailyRequestCount = components['schemas']['DailyRequestCount'];

/**
 * The workspace's API requests on each of the `days` UTC days ending today (today included),
 * oldest first, every day present: the written counts plus those this process has not written
 * yet, as the usage counts them.
 */
export async function readDailyRequests(store: Store, requestCounts: PendingRequestCounts, workspaceId: string, days: number, now: Date): Promise<DailyRequestCount[]> {
  const toDay = dayOf(now.getTime());
  const fromDay = toDay - days + 1;
  const byDay = await requestCounts.servedByDay(workspaceId, fromDay, toDay, () => store.workspaceProfile.listApiRequestsByDay(workspaceId, fromDay, toDay));
  const items: DailyRequestCount[] = [];
  for (let day = fromDay; day <= toDay; day += 1) items.push({ date: dateOfDay(day), requests: byDay.get(day) ?? 0 });
  return items;
}
