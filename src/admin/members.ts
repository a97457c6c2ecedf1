// Workspace members as the administration API shows and removes them.
import type { components } from '../../generated/openapi.js';
import { ServiceError } from '../errors/service-error.js';
import { Codes } from '../errors/codes.js';
import type { Store } from '../store/index.js';
import type { MembershipRow } from '../store/accounts.js';

export type WorkspaceMember = components['schemas']['WorkspaceMember'];

export function toMemberView(row: MembershipRow): WorkspaceMember {
  return { user_id: row.user_id, name: row.user_name, email: row.user_email, role: row.role, joined_at: row.created_at };
}

/**
 * Removes a member. Their keys and tokens already stop on the next request because each request
 * checks membership; they are also revoked here, so re-adding the user later does not revive them.
 * The last owner stays: a workspace without an owner could never be administered again.
 */
export function removeMember(store: Store, input: { workspaceId: string; userId: string; now: Date }): { id: string; deleted: true } {
  const at = input.now.toISOString();
  store.db.transaction(() => {
    const membership = store.accounts.getMembership(input.workspaceId, input.userId);
    if (!membership) throw ServiceError.notFound('Member');
    if (membership.role === 'owner' && store.accounts.countOwners(input.workspaceId) <= 1) {
      throw new ServiceError('CONFLICT', 'The workspace must keep at least one owner: make another member an owner first.');
    }
    store.accounts.deleteMembership(input.workspaceId, input.userId);
    store.apiKeys.revokeAllBy(input.workspaceId, input.userId, at);
    store.memberTokens.revokeAllOf(input.workspaceId, input.userId, at);
  }).immediate();
  return { id: input.userId, deleted: true };
}
