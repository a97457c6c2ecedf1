import { ServiceError } from '../errors/service-error.js';
import type { OperationHandler } from '../operations/handler-types.js';
import { readPlan } from '../workspace/plan.js';
import { ok } from '../operations/success.js';

export const getWorkspacePlan: OperationHandler<'getWorkspacePlan'> = async ({ caller, store }) => {
  const plan = await readPlan(store, caller.principal.workspace_id, caller.principal.subscription_status);
  if (!plan) throw new ServiceError('NOT_FOUND', 'No plan is on record for this workspace.');
  return ok(plan);
};
