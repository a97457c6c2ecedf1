import type { Command } from '../command.js';
import { existingUser, existingWorkspace, storedId } from '../validate.js';
import { CliError } from '../args.js';
import { instantOf } from '../../store/timestamp.js';
import { createApiKey, KeyRefusal } from '../../keys/api-keys.js';
import { isScope, parseStoredScopes, type Scope } from '../../keys/scopes.js';
import { updateWorkspaceApiKey } from '../../admin/api-keys.js';
import { ServiceError } from '../../errors/service-error.js';
import { writeAudited } from '../cli-audit.js';

function parseScopes(value: string | undefined, option = 'scopes'): Scope[] | undefined {
  if (value === undefined) return undefined;
  const scopes = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const s of scopes) if (!isScope(s)) throw new CliError(`--${option}: unknown scope "${s}"`);
  return scopes as Scope[];
}

export const keyCreate: Command = {
  name: 'key create',
  usage: 'key create --workspace ID --user ID --name NAME [--scopes a,b,...] [--expires-at RFC3339]',
  async run({ options, store, limits }) {
    const workspace = await existingWorkspace(await store(), options.required('workspace'));
    const user = await existingUser(await store(), options.required('user'));
    const name = options.required('name');
    const scopes = parseScopes(options.optional('scopes'));
    const expiresRaw = options.optional('expires-at');
    const expiresAt = expiresRaw === undefined ? undefined : instantOf(expiresRaw);
    if (expiresRaw !== undefined && expiresAt === undefined) throw new CliError(`--expires-at "${expiresRaw}" is not an RFC 3339 time`);
    try {
      const db = await store();
      const created = await writeAudited(db, workspace.id,
        () => createApiKey(db, { workspaceId: workspace.id, userId: user.id, name, scopes, expiresAt, maxActive: limits.activeApiKeys }),
        (key) => [{ action: 'api_key.created', object: { type: 'api_key', id: key.id } }]);
      return { id: created.id, key: created.key, prefix: created.prefix, scopes: created.scopes, expires_at: created.expires_at };
    } catch (err) {
      if (err instanceof KeyRefusal) throw new CliError(err.message);
      if (err instanceof ServiceError && err.error === 'LIMIT_REACHED') {
        throw new CliError(`workspace ${workspace.id} already holds ${limits.activeApiKeys} active API keys, as many as it may (MAX_ACTIVE_API_KEYS): revoke one first (key revoke --key ID)`);
      }
      throw err;
    }
  },
  text: (r: { id: string; key: string; expires_at: string }) =>
    `created key ${r.id} (expires ${r.expires_at})\n${r.key}\nStore it now: it is shown only once.`,
};

export const keyRevoke: Command = {
  name: 'key revoke',
  usage: 'key revoke --key ID',
  async run({ options, store }) {
    const id = storedId(options.required('key'));
    const row = await (await store()).apiKeys.get(id);
    if (!row) throw new CliError(`key ${id} does not exist`);
    if (row.revoked_at !== null) throw new CliError(`key ${id} is already revoked`);
    const now = new Date().toISOString();
    const db = await store();
    await writeAudited(db, row.workspace_id, () => db.apiKeys.revoke(id, now), () => [{ action: 'api_key.revoked', object: { type: 'api_key', id } }]);
    return { id, revoked_at: now };
  },
  text: (r: { id: string }) => `revoked key ${r.id}`,
};

/** Renames a key and/or removes scopes from it, as PATCH /api-keys/{key_id} does: never wider. */
export const keyUpdate: Command = {
  name: 'key update',
  usage: 'key update --key ID [--name NAME] [--remove-scopes a,b,...]',
  async run({ options, store }) {
    const id = storedId(options.required('key'));
    const name = options.optional('name');
    const removed = parseScopes(options.optional('remove-scopes'), 'remove-scopes');
    if (name === undefined && removed === undefined) throw new CliError('give --name, --remove-scopes, or both');
    const row = await (await store()).apiKeys.get(id);
    if (!row) throw new CliError(`key ${id} does not exist`);
    const held = parseStoredScopes(row.scopes);
    const notHeld = removed?.filter((s) => !held.includes(s)) ?? [];
    if (notHeld.length > 0) throw new CliError(`--remove-scopes: key ${id} does not hold ${notHeld.join(', ')}`);
    if (removed?.length === 0) throw new CliError('--remove-scopes: name at least one scope');
    const scopes = removed === undefined ? undefined : held.filter((s) => !removed.includes(s));
    try {
      const db = await store();
      return await writeAudited(db, row.workspace_id,
        () => updateWorkspaceApiKey(db, { workspaceId: row.workspace_id, keyId: id, name, scopes }),
        () => [{ action: 'api_key.updated', object: { type: 'api_key', id } }]);
    } catch (err) {
      if (err instanceof ServiceError) throw new CliError(`key ${id}: ${err.message}`);
      throw err;
    }
  },
  text: (r: { id: string; name: string; scopes: string[] }) => `updated key ${r.id}: ${r.name} (${r.scopes.join(', ')})`,
};

export const keyList: Command = {
  name: 'key list',
  usage: 'key list --workspace ID',
  async run({ options, store }) {
    const workspace = await existingWorkspace(await store(), options.required('workspace'));
    const keys = (await (await store()).apiKeys.listByWorkspace(workspace.id)).map((k) => ({
      id: k.id,
      name: k.name,
      prefix: k.prefix,
      scopes: parseStoredScopes(k.scopes),
      created_by: k.created_by,
      created_at: k.created_at,
      expires_at: k.expires_at,
      revoked_at: k.revoked_at,
      last_used_at: k.last_used_at,
    }));
    return { keys };
  },
  text: (r: { keys: Array<{ id: string; prefix: string; name: string; revoked_at: string | null; expires_at: string }> }) =>
    r.keys.length === 0
      ? 'no keys'
      : r.keys.map((k) => `${k.id}  ${k.prefix}…  ${k.name}  ${k.revoked_at ? `revoked ${k.revoked_at}` : `expires ${k.expires_at}`}`).join('\n'),
};
