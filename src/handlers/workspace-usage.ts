import type { OperationHandler } from '../operations/handler-types.js';
import { readUsage } from '../workspace/usage.js';
import { ok } from '../operations/success.js';

export const getWorkspaceUsage: OperationHandler<'getWorkspaceUsage'> = async ({ caller, store, requestCounts, now }) =>
  ok(await readUsage(store, requestCounts, caller.principal.workspace_id, now));
