import type { Command } from '../command.js';
import { existingUser, existingWorkspace, oneOf } from '../validate.js';
import { CliError } from '../args.js';
import type { Role } from '../../store/interfaces/accounts.js';
import type { ApiKeyRow } from '../../store/interfaces/api-keys.js';
import { keysAfterRoleChange, revokedInCascade } from '../../admin/members.js';
import { writeAudited } from '../cli-audit.js';

const LAST_OWNER = 'the workspace must keep at least one owner: make another member an owner first';

interface MemberAdded {
  workspace_id: string;
  user_id: string;
  role: Role;
  /** For a user who already was a member: the keys they created that still worked before the change. */
  api_keys?: Array<Pick<ApiKeyRow, 'id' | 'name' | 'prefix' | 'revoked_at'>>;
  keys_revoked?: boolean;
}

export const memberAdd: Command = {
  name: 'member add',
  usage: 'member add --workspace ID --user ID --role owner|member [--revoke-keys]',
  async run({ options, store }) {
    const workspace = await existingWorkspace(await store(), options.required('workspace'));
    const user = await existingUser(await store(), options.required('user'));
    const role = oneOf<Role>('role', options.required('role'), ['owner', 'member']);
    const revokeKeys = options.flag('revoke-keys');
    const now = new Date().toISOString();
    const db = await store();
    const member = { type: 'member', id: user.id } as const;
    // A member already: a role change, which lists the keys they created (a demoted owner's keep
    // working unless --revoke-keys). A new member (or one removed before) starts with no key.
    return writeAudited(db, workspace.id, async (): Promise<MemberAdded> => {
      const change = await db.accounts.changeRole(workspace.id, user.id, role, now, { revokeKeys });
      if (change.outcome === 'last_owner') throw new CliError(LAST_OWNER);
      if (change.outcome === 'not_a_member') {
        await db.accounts.upsertMembership(workspace.id, user.id, role, now);
        return { workspace_id: workspace.id, user_id: user.id, role };
      }
      const apiKeys = change.keys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, revoked_at: k.revoked_at }));
      return { workspace_id: workspace.id, user_id: user.id, role, api_keys: apiKeys, keys_revoked: revokeKeys };
    }, (added) => added.api_keys === undefined
      ? [{ action: 'member.added', object: member }]
      : [{ action: 'member.role_changed', object: member }, ...revokedInCascade(added.keys_revoked === true ? added.api_keys.map((k) => k.id) : [], [])]);
  },
  text: (r: MemberAdded) => [
    `user ${r.user_id} is now ${r.role} of workspace ${r.workspace_id}`,
    ...(r.api_keys === undefined ? [] : [
      `${keysAfterRoleChange(r.api_keys, r.keys_revoked === true)}${r.api_keys.length > 0 ? ':' : ''}`,
      ...r.api_keys.map((k) => `  ${k.id} ${k.prefix}… ${k.name}`),
    ]),
  ].join('\n'),
};

export const memberRemove: Command = {
  name: 'member remove',
  usage: 'member remove --workspace ID --user ID',
  async run({ options, store }) {
    const workspace = await existingWorkspace(await store(), options.required('workspace'));
    const user = await existingUser(await store(), options.required('user'));
    // Revokes their keys and tokens in the same transaction, so adding them again revives none.
    const db = await store();
    await writeAudited(db, workspace.id, async () => {
      const removal = await db.accounts.removeMember(workspace.id, user.id, new Date().toISOString());
      if (removal.outcome === 'not_a_member') throw new CliError(`user ${user.id} is not a member of workspace ${workspace.id}`);
      if (removal.outcome === 'last_owner') throw new CliError(LAST_OWNER);
      return removal;
    }, (removal) => [{ action: 'member.removed', object: { type: 'member', id: user.id } }, ...revokedInCascade(removal.revokedKeyIds, removal.revokedTokenIds)]);
    return { workspace_id: workspace.id, user_id: user.id, removed: true };
  },
  text: (r: { workspace_id: string; user_id: string }) => `removed user ${r.user_id} from workspace ${r.workspace_id}; their keys and tokens are revoked`,
};
