import type { AdminOperationHandler } from '../operations/handler-types.js';
import { readDailyRequests } from '../workspace/daily-usage.js';
import { ok } from '../operations/success.js';
import { readPlan } from '../workspace/plan.js';

export const getDailyUsage: AdminOperationHandler<'getDailyUsage'> = async ({ path, query, store, now, services }) => {
  const [items, headroom, workspace] = await Promise.all([
    readDailyRequests(store, services.requestCounts, path.workspace_id, query.days, now),
    services.rateLimitHeadroom(path.workspace_id, now),
    store.accounts.getWorkspace(path.workspace_id),
  ]);
  const plan = workspace ? await readPlan(store, path.workspace_id, workspace.subscription_status) : undefined;
  return ok({ items, rate_limit: headroom, plan: plan ?? null });
};
