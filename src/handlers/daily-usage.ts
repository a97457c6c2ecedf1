import type { AdminOperationHandler } from '../operations/handler-types.js';
import { readDailyRequests } from '../workspace/daily-usage.js';
import { ok } from '../operations/success.js';

export const getDailyUsage: AdminOperationHandler<'getDailyUsage'> = async ({ path, query, store, now, services }) => {
  const [items, headroom] = await Promise.all([
    readDailyRequests(store, services.requestCounts, path.workspace_id, query.days ?? 30, now),
    services.rateLimitHeadroom(path.workspace_id, now),
  ]);
  return ok({ items, rate_limit: headroom });
};
