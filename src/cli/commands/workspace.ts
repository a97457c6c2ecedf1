import { randomUUID } from 'node:crypto';
import type { Command } from '../command.js';
import { existingWorkspace, oneOf } from '../validate.js';
import { CliError } from '../args.js';
import type { SubscriptionStatus } from '../../store/interfaces/accounts.js';

const STATUSES: readonly SubscriptionStatus[] = ['active', 'past_due', 'canceled', 'none'];

export const workspaceCreate: Command = {
  name: 'workspace create',
  usage: 'workspace create --name NAME [--subscription active|past_due|canceled|none]',
  async run({ options, store }) {
    const name = options.required('name').trim();
    if (name === '') throw new CliError('--name must not be empty');
    const subscription = oneOf('subscription', options.optional('subscription') ?? 'active', STATUSES);
    const id = randomUUID();
    await (await store()).accounts.insertWorkspace({ id, name, subscription_status: subscription, created_at: new Date().toISOString() });
    return { id };
  },
  text: (r: { id: string }) => `created workspace ${r.id}`,
};

export const workspaceSetSubscription: Command = {
  name: 'workspace set-subscription',
  usage: 'workspace set-subscription --workspace ID --status active|past_due|canceled|none',
  async run({ options, store }) {
    const workspace = await existingWorkspace(await store(), options.required('workspace'));
    const status = oneOf('status', options.required('status'), STATUSES);
    await (await store()).accounts.setSubscription(workspace.id, status);
    return { id: workspace.id, subscription_status: status };
  },
  text: (r: { id: string; subscription_status: string }) => `workspace ${r.id} subscription is now ${r.subscription_status}`,
};
