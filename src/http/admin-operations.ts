// The administration API's operations (`/api/workspace/{workspace_id}/...`) with the least role
// each needs. Read handlers cover every other operationId, so an operation listed here must have
// an admin handler, and one missing from here must have a read handler: either way a forgotten
// handler fails the type check.
import type { Role } from '../store/accounts.js';
import type { OperationId } from './operation-types.js';

export interface AdminOperationRule {
  /** The least role: `member` admits owners too. */
  role: Role;
  /** Also reachable with an API key of the workspace (any scopes). */
  apiKey: boolean;
}

const owner = { role: 'owner', apiKey: false } as const;

export const ADMIN_OPERATIONS = {
  listWebhookEvents: { role: 'member', apiKey: true },
  listWebhooks: owner,
  createWebhook: owner,
  getWebhook: owner,
  updateWebhook: owner,
  deleteWebhook: owner,
  enableWebhook: owner,
  disableWebhook: owner,
  rotateWebhookSecret: owner,
  testWebhook: owner,
  listWebhookDeliveries: owner,
  getWebhookDelivery: owner,
  redeliverWebhookDelivery: owner,
  recoverWebhookDeliveries: owner,
  listApiKeys: owner,
  createApiKey: owner,
  revokeApiKey: owner,
  listMembers: { role: 'member', apiKey: false },
  removeMember: owner,
} as const satisfies { readonly [Op in OperationId]?: AdminOperationRule };

export type AdminOperationId = keyof typeof ADMIN_OPERATIONS;

export function adminOperationRule(operationId: string): AdminOperationRule | undefined {
  return Object.hasOwn(ADMIN_OPERATIONS, operationId) ? ADMIN_OPERATIONS[operationId as AdminOperationId] : undefined;
}
