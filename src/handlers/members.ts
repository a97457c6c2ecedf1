import type { AdminOperationHandler } from '../operations/handler-types.js';
import { changeMemberRole, keysAfterRoleChange, removeMember as removeFromWorkspace, revokedInCascade, toMemberView } from '../admin/members.js';
import { readCreatedOrderPage } from '../pagination/created-order-page.js';
import { deleted, ok, okWith } from '../operations/success.js';

export const listMembers: AdminOperationHandler<'listMembers'> = async ({ operationId, path, query, store, cursors }) =>
  ok(await readCreatedOrderPage(
    cursors,
    { list: operationId, workspaceId: path.workspace_id, filters: {} },
    query,
    async (limit, after) => (await store.accounts.listMembershipPage(path.workspace_id, limit, after)).map(toMemberView),
    (member) => [member.joined_at, member.user_id],
  ));

export const removeMember: AdminOperationHandler<'removeMember'> = async ({ path, store, now, audit }) => {
  const removal = await removeFromWorkspace(store, { workspaceId: path.workspace_id, userId: path.user_id, now });
  for (const change of revokedInCascade(removal.revokedKeyIds, removal.revokedTokenIds)) audit.cascade(change);
  return deleted(removal.removed, 'Member removed; their API keys and tokens no longer work.');
};

export const updateMember: AdminOperationHandler<'updateMember'> = async ({ path, body, store, now, audit }) => {
  const revokeKeys = body.revoke_keys;
  const changed = await changeMemberRole(store, { workspaceId: path.workspace_id, userId: path.user_id, role: body.role, revokeKeys, now });
  if (revokeKeys) for (const change of revokedInCascade(changed.api_keys.map((k) => k.id), [])) audit.cascade(change);
  return okWith(changed, `Role changed to ${changed.member.role}; ${keysAfterRoleChange(changed.api_keys, revokeKeys)}.`);
};
