import type { AdminOperationHandler } from './handler-types.js';
import { changeMemberRole, keysAfterRoleChange, removeMember as removeFromWorkspace, toMemberView } from '../admin/members.js';
import { readCreatedOrderPage } from './paging.js';
import { deleted, ok, okWith } from './success.js';

export const listMembers: AdminOperationHandler<'listMembers'> = async ({ operationId, path, query, store, cursors }) =>
  ok(await readCreatedOrderPage(
    cursors,
    { list: operationId, workspaceId: path.workspace_id, filters: {} },
    query,
    async (limit, after) => (await store.accounts.listMembershipPage(path.workspace_id, limit, after)).map(toMemberView),
    (member) => [member.joined_at, member.user_id],
  ));

export const removeMember: AdminOperationHandler<'removeMember'> = async ({ path, store, now }) =>
  deleted(
    await removeFromWorkspace(store, { workspaceId: path.workspace_id, userId: path.user_id, now }),
    'Member removed; their API keys and tokens no longer work.',
  );

export const updateMember: AdminOperationHandler<'updateMember'> = async ({ path, body, store, now }) => {
  const revokeKeys = body.revoke_keys ?? false;
  const changed = await changeMemberRole(store, { workspaceId: path.workspace_id, userId: path.user_id, role: body.role, revokeKeys, now });
  return okWith(changed, `Role changed to ${changed.member.role}; ${keysAfterRoleChange(changed.api_keys, revokeKeys)}.`);
};
