// API keys as owners manage them through the administration API.
import type { components } from '../../generated/openapi.js';
import { ServiceError } from '../errors/service-error.js';
import { createApiKey, KeyRefusal } from '../keys/api-keys.js';
import { parseStoredScopes, type Scope } from '../keys/scopes.js';
import type { Store } from '../store/index.js';
import { instantOf } from '../store/timestamp.js';
import type { ApiKeyRow } from '../store/interfaces/api-keys.js';

export type WorkspaceApiKey = components['schemas']['WorkspaceApiKey'];

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
  const at = input.now.toISOString();
  const active = (await store.apiKeys.listByWorkspace(input.workspaceId)).filter((k) => k.revoked_at === null && k.expires_at > at).length;
  if (active >= input.maxActive) {
    throw new ServiceError('LIMIT_REACHED', `The workspace already holds ${input.maxActive} active API keys, as many as it may: revoke one first.`);
  }
  const name = input.name.trim();
  if (name === '') throw ServiceError.invalid({ in: 'body', name: 'name', message: 'must not be blank' });
  const expiresAt = input.expiresAt === undefined ? undefined : instantOf(input.expiresAt);
  if (input.expiresAt !== undefined && expiresAt === undefined) throw ServiceError.invalid({ in: 'body', name: 'expires_at', message: 'must be an RFC 3339 date-time, e.g. 2027-01-15T00:00:00Z' });
  if (expiresAt !== undefined && expiresAt.getTime() <= input.now.getTime()) throw ServiceError.invalid({ in: 'body', name: 'expires_at', message: 'must be in the future' });
  try {
    const created = await createApiKey(store, { workspaceId: input.workspaceId, userId: input.userId, name, scopes: input.scopes, expiresAt }, input.now);
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
