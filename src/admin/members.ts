// Workspace members as the administration API shows and removes them.
import type { components } from '../../generated/openapi.js';
import { ServiceError } from '../errors/service-error.js';
import { Codes } from '../errors/codes.js';
import type { Store } from '../store/index.js';
import type { MembershipRow } from '../store/interfaces/accounts.js';

export type WorkspaceMember = components['schemas']['WorkspaceMember'];

export function toMemberView(row: MembershipRow): WorkspaceMember {
  return { user_id: row.user_id, name: row.user_name, email: row.user_email, role: row.role, joined_at: row.created_at };
}

/**
 * Removes a member. Their keys and tokens already stop on the next request because each request
 * checks membership; they are also revoked here, so re-adding the user later does not revive them.
 * The last owner stays: a workspace without an owner could never be administered again.
 */
export async function removeMember(store: Store, input: { workspaceId: string; userId: string; now: Date }): Promise<{ id: string; deleted: true }> {
  const outcome = await store.accounts.removeMember(input.workspaceId, input.userId, input.now.toISOString());
  if (outcome === 'not_a_member') throw ServiceError.notFound('Member');
  if (outcome === 'last_owner') throw new ServiceError('CONFLICT', 'The workspace must keep at least one owner: make another member an owner first.');
  return { id: input.userId, deleted: true };
}
