import { CliError } from './args.js';
import type { Store } from '../store/index.js';
import type { WorkspaceRow, UserRow } from '../store/interfaces/accounts.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id as typed, in any letter case (RFC 9562), as stored: lower case. */
export function storedId(id: string): string {
  return id.toLowerCase();
}

export async function existingWorkspace(store: Store, id: string): Promise<WorkspaceRow> {
  const row = UUID.test(id) ? await store.accounts.getWorkspace(storedId(id)) : undefined;
  if (!row) throw new CliError(`workspace ${id} does not exist`);
  return row;
}

export async function existingUser(store: Store, id: string): Promise<UserRow> {
  const row = UUID.test(id) ? await store.accounts.getUser(storedId(id)) : undefined;
  if (!row) throw new CliError(`user ${id} does not exist`);
  return row;
}

export function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new CliError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** A whole number option from `min` to `max` in plain digits; undefined when absent. */
export function wholeNumber(raw: string | undefined, name: string, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new CliError(`--${name} "${raw}" must be a whole number from ${min} to ${max}`);
  return Number(raw);
}
