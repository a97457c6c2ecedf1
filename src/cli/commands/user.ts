import { randomUUID } from 'node:crypto';
import type { Command } from '../command.js';
import { CliError } from '../args.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const userCreate: Command = {
  name: 'user create',
  usage: 'user create --email EMAIL --name NAME',
  async run({ options, store }) {
    const email = options.required('email').trim();
    const name = options.required('name').trim();
    if (!EMAIL.test(email)) throw new CliError(`--email "${email}" is not an email address`);
    if (name === '') throw new CliError('--name must not be empty');
    if (await (await store()).accounts.getUserByEmail(email)) throw new CliError(`a user with email ${email} already exists`);
    const id = randomUUID();
    await (await store()).accounts.insertUser({ id, email, name, created_at: new Date().toISOString() });
    return { id };
  },
  text: (r: { id: string }) => `created user ${r.id}`,
};
