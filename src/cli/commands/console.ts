import type { Command } from '../command.js';
import { existingUser, existingWorkspace } from '../validate.js';
import { CliError } from '../args.js';
import { KeyRefusal } from '../../keys/api-keys.js';
import { createSignInLink } from '../../keys/console-sessions.js';

export const consoleLink: Command = {
  name: 'console link',
  usage: 'console link --workspace ID --user ID',
  async run({ options, store, publicBaseUrl }) {
    if (publicBaseUrl === undefined) {
      throw new CliError('PUBLIC_BASE_URL is not set: the link must name the address people open the console at (for example https://api.example.com)');
    }
    const workspace = await existingWorkspace(await store(), options.required('workspace'));
    const user = await existingUser(await store(), options.required('user'));
    try {
      const link = await createSignInLink(await store(), { workspaceId: workspace.id, userId: user.id });
      return {
        url: `${publicBaseUrl.replace(/\/+$/, '')}/console/link/${link.token}`,
        workspace_id: link.workspace_id,
        user_id: link.user_id,
        expires_at: link.expires_at,
      };
    } catch (err) {
      if (err instanceof KeyRefusal) throw new CliError(err.message);
      throw err;
    }
  },
  text: (r: { url: string; user_id: string; expires_at: string }) =>
    `${r.url}\nA one-time sign-in link to the console for user ${r.user_id}: it works once, until ${r.expires_at}. `
    + 'Hand it to that person only; opening it shows a sign-in button.',
};
