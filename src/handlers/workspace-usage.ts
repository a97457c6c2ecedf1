import type { OperationHandler } from './handler-types.js';
import { readUsage } from '../workspace/usage.js';
import { ok } from './success.js';

export const getWorkspaceUsage: OperationHandler<'getWorkspaceUsage'> = ({ caller, store, now }) =>
  ok(readUsage(store, caller.principal.workspace_id, now));
