// Workspace members as the administration API shows and removes them.
import type { components } from '../../generated/openapi.js';
import { ServiceError } from '../errors/service-error.js';
import type { Store } from '../store/index.js';
import type { MembershipRow, Role } from '../store/interfaces/accounts.js';
import { toApiKeyView, type WorkspaceApiKey } from './api-keys.js';
import type { CascadedChange } from '../audit/audit-trail.js';

export type WorkspaceMember = components['schemas']['WorkspaceMember'];

export function toMemberView(row: MembershipRow): WorkspaceMember {
  return { user_id: row.user_id, name: row.user_name, email: row.user_email, role: row.role, joined_at: row.created_at };
}

/**
 * Removes a member. Their keys and tokens already stop on the next request because each request
 * checks membership; they are also revoked here, so re-adding the user later does not revive them.
 * The last owner stays: a workspace without an owner could never be administered again.
 */
export async function removeMember(
  store: Store,
  input: { workspaceId: string; userId: string; now: Date },
): Promise<{ removed: { id: string; deleted: true }; revokedKeyIds: string[]; revokedTokenIds: string[] }> {
  const removal = await store.accounts.removeMember(input.workspaceId, input.userId, input.now.toISOString());
  if (removal.outcome === 'not_a_member') throw ServiceError.notFound('Member');
  if (removal.outcome === 'last_owner') throw new ServiceError('CONFLICT', 'The workspace must keep at least one owner: make another member an owner first.');
  return { removed: { id: input.userId, deleted: true }, revokedKeyIds: removal.revokedKeyIds, revokedTokenIds: removal.revokedTokenIds };
}

/** The audit entries of what a member's removal or demotion revoked in cascade: one per key and per token. */
export function revokedInCascade(keyIds: readonly string[], tokenIds: readonly string[]): CascadedChange[] {
  return [
    ...keyIds.map((id): CascadedChange => ({ action: 'api_key.revoked', object: { type: 'api_key', id } })),
    ...tokenIds.map((id): CascadedChange => ({ action: 'member_token.revoked', object: { type: 'member_token', id } })),
  ];
}

/** What the user's keys do after a role change, in words, for the answer's `messages` and the command line. */
export function keysAfterRoleChange(keys: readonly { revoked_at: string | null }[], revoked: boolean): string {
  const count = keys.length === 1 ? 'the 1 API key they created' : `the ${keys.length} API keys they created`;
  if (keys.length === 0) return 'they created no API key that still works';
  return revoked ? `${count} ${keys.length === 1 ? 'was' : 'were'} revoked` : `${count} ${keys.length === 1 ? 'keeps' : 'keep'} working`;
}

/**
 * Changes a member's role, answering the member and the API keys they created that still worked:
 * a demoted owner's keys keep working (integrations depend on them) unless `revokeKeys`, which
 * revokes them in the same transaction. The last owner stays an owner.
 */
export async function changeMemberRole(
  store: Store,
  input: { workspaceId: string; userId: string; role: Role; revokeKeys: boolean; now: Date },
): Promise<{ member: WorkspaceMember; api_keys: WorkspaceApiKey[] }> {
  const change = await store.accounts.changeRole(input.workspaceId, input.userId, input.role, input.now.toISOString(), { revokeKeys: input.revokeKeys });
  if (change.outcome === 'not_a_member') throw ServiceError.notFound('Member');
  if (change.outcome === 'last_owner') throw new ServiceError('CONFLICT', 'The workspace must keep at least one owner: make another member an owner first.');
  return { member: toMemberView(change.membership), api_keys: change.keys.map(toApiKeyView) };
}
