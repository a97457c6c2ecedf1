import { ServiceError } from '../errors/service-error.js';
import type { OperationHandler } from '../operations/handler-types.js';
import { ok } from '../operations/success.js';

export const getWorkspace: OperationHandler<'getWorkspace'> = async ({ caller, store }) => {
  const workspace = await store.accounts.getWorkspace(caller.principal.workspace_id);
  if (!workspace) throw ServiceError.notFound('Workspace');
  const profile = await store.workspaceProfile.getProfile(workspace.id);
  return ok({
    id: workspace.id,
    name: workspace.name,
    created_at: workspace.created_at,
    subscription_status: workspace.subscription_status,
    brand_name: profile?.brand_name ?? null,
    domains: profile?.domains ?? [],
  });
};
