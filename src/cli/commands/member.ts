import type { Command } from '../command.js';
import { existingUser, existingWorkspace, oneOf } from '../validate.js';
import { CliError } from '../args.js';
import type { Role } from '../../store/interfaces/accounts.js';

export const memberAdd: Command = {
  name: 'member add',
  usage: 'member add --workspace ID --user ID --role owner|member',
  async run({ options, store }) {
    const workspace = await existingWorkspace(await store(), options.required('workspace'));
    const user = await existingUser(await store(), options.required('user'));
    const role = oneOf<Role>('role', options.required('role'), ['owner', 'member']);
    await (await store()).accounts.upsertMembership(workspace.id, user.id, role, new Date().toISOString());
    return { workspace_id: workspace.id, user_id: user.id, role };
  },
  text: (r: { workspace_id: string; user_id: string; role: string }) => `user ${r.user_id} is now ${r.role} of workspace ${r.workspace_id}`,
};

export const memberRemove: Command = {
  name: 'member remove',
  usage: 'member remove --workspace ID --user ID',
  async run({ options, store }) {
    const workspace = await existingWorkspace(await store(), options.required('workspace'));
    const user = await existingUser(await store(), options.required('user'));
    if (!(await (await store()).accounts.deleteMembership(workspace.id, user.id))) {
      throw new CliError(`user ${user.id} is not a member of workspace ${workspace.id}`);
    }
    return { workspace_id: workspace.id, user_id: user.id, removed: true };
  },
  text: (r: { workspace_id: string; user_id: string }) => `removed user ${r.user_id} from workspace ${r.workspace_id}; their keys no longer work`,
};
