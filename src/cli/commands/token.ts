import type { Command } from '../command.js';
import { existingUser, existingWorkspace, storedId } from '../validate.js';
import { CliError } from '../args.js';
import { KeyRefusal } from '../../keys/api-keys.js';
import { createMemberToken } from '../../keys/member-tokens.js';
import { writeAudited } from '../cli-audit.js';

export const tokenCreate: Command = {
  name: 'token create',
  usage: 'token create --workspace ID --user ID [--name NAME]',
  async run({ options, store }) {
    const workspace = await existingWorkspace(await store(), options.required('workspace'));
    const user = await existingUser(await store(), options.required('user'));
    const name = options.optional('name');
    try {
      const db = await store();
      return await writeAudited(db, workspace.id, () => createMemberToken(db, { workspaceId: workspace.id, userId: user.id, name }),
        (token) => [{ action: 'member_token.created', object: { type: 'member_token', id: token.id } }]);
    } catch (err) {
      if (err instanceof KeyRefusal) throw new CliError(err.message);
      throw err;
    }
  },
  text: (r: { id: string; token: string; user_id: string; workspace_id: string }) =>
    `created member token ${r.id} for user ${r.user_id} in workspace ${r.workspace_id}\n${r.token}\n`
    + 'Store it now: it is shown only once. Use it as `Authorization: Bearer <token>` on /api/workspace/<workspace id>/...',
};

export const tokenRevoke: Command = {
  name: 'token revoke',
  usage: 'token revoke --token ID',
  async run({ options, store }) {
    const id = storedId(options.required('token'));
    const row = await (await store()).memberTokens.get(id);
    if (!row) throw new CliError(`member token ${id} does not exist`);
    if (row.revoked_at !== null) throw new CliError(`member token ${id} is already revoked`);
    const now = new Date().toISOString();
    const db = await store();
    await writeAudited(db, row.workspace_id, () => db.memberTokens.revoke(id, now), () => [{ action: 'member_token.revoked', object: { type: 'member_token', id } }]);
    return { id, revoked_at: now };
  },
  text: (r: { id: string }) => `revoked member token ${r.id}`,
};

export const tokenList: Command = {
  name: 'token list',
  usage: 'token list --workspace ID',
  async run({ options, store }) {
    const workspace = await existingWorkspace(await store(), options.required('workspace'));
    const tokens = (await (await store()).memberTokens.listByWorkspace(workspace.id)).map((t) => ({
      id: t.id,
      name: t.name,
      prefix: t.prefix,
      user_id: t.user_id,
      created_at: t.created_at,
      revoked_at: t.revoked_at,
    }));
    return { tokens };
  },
  text: (r: { tokens: Array<{ id: string; prefix: string; name: string; user_id: string; revoked_at: string | null }> }) =>
    r.tokens.length === 0
      ? 'no member tokens'
      : r.tokens.map((t) => `${t.id}  ${t.prefix}…  ${t.name}  user ${t.user_id}${t.revoked_at ? `  revoked ${t.revoked_at}` : ''}`).join('\n'),
};
