// API keys as owners manage them through the administration API.
import type { components } from '../../generated/openapi.js';
import { ServiceError } from '../errors/service-error.js';
import { createApiKey, KeyRefusal } from '../keys/api-keys.js';
import { normaliseScopes, parseStoredScopes, type Scope } from '../keys/scopes.js';
import type { Store } from '../store/index.js';
import { instantOf } from '../store/timestamp.js';
import type { ApiKeyRow } from '../store/interfaces/api-keys.js';

export type WorkspaceApiKey = components['schemas']['WorkspaceApiKey'];

/** Reads of a key a PATCH makes before it gives up on a key that others keep changing (each loss means another write won). */
const MAX_UPDATE_ATTEMPTS = 5;

export function toApiKeyView(row: ApiKeyRow): WorkspaceApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: parseStoredScopes(row.scopes),
    created_by: row.created_by,
    created_at: row.created_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
  };
}

/** A key acting as the calling owner; the secret is returned once and only its hash is kept. */
export async function createWorkspaceApiKey(
  store: Store,
  input: { workspaceId: string; userId: string; name: string; scopes?: readonly Scope[] | undefined; expiresAt?: string | undefined; now: Date; maxActive: number },
): Promise<{ api_key: WorkspaceApiKey; key: string }> {
  // Not blank: the contract's `pattern: '\S'` refused a name of whitespace alone before this ran.
  const name = input.name.trim();
  const expiresAt = input.expiresAt === undefined ? undefined : instantOf(input.expiresAt);
  if (input.expiresAt !== undefined && expiresAt === undefined) throw ServiceError.invalid({ in: 'body', name: 'expires_at', message: 'must be an RFC 3339 date-time, e.g. 2027-01-15T00:00:00Z' });
  if (expiresAt !== undefined && expiresAt.getTime() <= input.now.getTime()) throw ServiceError.invalid({ in: 'body', name: 'expires_at', message: 'must be in the future' });
  try {
    const created = await createApiKey(
      store,
      { workspaceId: input.workspaceId, userId: input.userId, name, scopes: input.scopes, expiresAt, maxActive: input.maxActive },
      input.now,
    );
    const row = await store.apiKeys.get(created.id);
    if (!row) throw new Error(`key ${created.id} vanished after creation`);
    return { api_key: toApiKeyView(row), key: created.key };
  } catch (err) {
    // The caller's role was checked on this request; a refusal here means it changed meanwhile.
    if (err instanceof KeyRefusal) throw new ServiceError('ROLE_FORBIDDEN', `Only owners of the workspace can create API keys (${err.message}).`);
    throw err;
  }
}

/** Revokes a key of the workspace; revoking a revoked key changes nothing. */
export async function revokeWorkspaceApiKey(store: Store, input: { workspaceId: string; keyId: string; now: Date }): Promise<WorkspaceApiKey> {
  const row = await store.apiKeys.get(input.keyId);
  if (row?.workspace_id !== input.workspaceId) throw ServiceError.notFound('API key');
  await store.apiKeys.revoke(row.id, input.now.toISOString());
  return toApiKeyView((await store.apiKeys.get(row.id)) ?? row);
}

/**
 * Renames a key and/or narrows its scopes. A key is never widened (a wider key is a new key, made
 * and handed out on purpose), and a revoked key stays as it was revoked.
 */
export async function updateWorkspaceApiKey(
  store: Store,
  input: { workspaceId: string; keyId: string; name?: string | undefined; scopes?: readonly Scope[] | undefined },
): Promise<WorkspaceApiKey> {
  const name = input.name?.trim();
  if (name === '') throw ServiceError.invalid({ in: 'body', name: 'name', message: 'must not be blank' });
  if (input.scopes?.length === 0) throw ServiceError.invalid({ in: 'body', name: 'scopes', message: 'must keep at least one scope: to take them all away, revoke the key' });
  const scopes = input.scopes === undefined ? undefined : normaliseScopes(input.scopes).join(' ');
  // The scopes are checked against the ones read, and written only if the key still holds exactly
  // those (a compare-and-set): a PATCH that lost the race reads again and is checked against the
  // winner's scopes, so scopes only ever narrow, and each answer is what its PATCH set.
  for (let attempt = 1; ; attempt++) {
    const row = await store.apiKeys.get(input.keyId);
    if (row?.workspace_id !== input.workspaceId) throw ServiceError.notFound('API key');
    if (row.revoked_at !== null) throw new ServiceError('CONFLICT', `The API key was revoked at ${row.revoked_at} and can no longer be changed.`);
    const held = parseStoredScopes(row.scopes);
    const added = input.scopes?.filter((s) => !held.includes(s)) ?? [];
    if (added.length > 0) {
      throw ServiceError.invalid({ in: 'body', name: 'scopes', message: `the key does not hold ${added.join(', ')}; scopes can only be removed: a wider key is a new key` });
    }
    if (await store.apiKeys.update(row.id, { name, scopes, scopesWere: scopes === undefined ? undefined : row.scopes })) {
      return toApiKeyView({ ...row, name: name ?? row.name, scopes: scopes ?? row.scopes });
    }
    // Revoked or changed since it was read: read it again, a few times at most.
    if (attempt === MAX_UPDATE_ATTEMPTS) throw new ServiceError('CONFLICT', 'The API key kept changing while this change was being made; read it and try again.');
  }
}
