import type { components } from '../../generated/openapi.js';
import type { SubscriptionStatus } from '../store/interfaces/accounts.js';
import type { Store } from '../store/index.js';

export type WorkspacePlan = components['schemas']['WorkspacePlan'];

/** The workspace's plan with the subscription status of the moment; undefined when none is on record. */
export async function readPlan(store: Store, workspaceId: string, status: SubscriptionStatus): Promise<WorkspacePlan | undefined> {
  const row = await store.workspaceProfile.getPlan(workspaceId);
  if (!row) return undefined;
  return {
    name: row.name,
    status,
    limits: { tracked_prompts: row.tracked_prompts_limit, articles_per_month: row.articles_per_month_limit },
    current_period: { start: row.period_start, end: row.period_end },
  };
}
