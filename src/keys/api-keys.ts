import { randomUUID } from 'node:crypto';
import { DEFAULT_WORKSPACE_LIMITS } from '../config.js';
import { ServiceError } from '../errors/service-error.js';
import type { Store } from '../store/index.js';
import type { KeyPrincipalRow } from '../store/interfaces/api-keys.js';
import { createSecretToken, displayPrefix, hashToken, isWellFormedToken } from './secret-token.js';
import { ALL_SCOPES, normaliseScopes, type Scope } from './scopes.js';

export const API_KEY_PREFIX = 'wsk_live_';
const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

export class KeyRefusal extends Error {}

export interface CreatedApiKey {
  id: string;
  key: string;
  prefix: string;
  name: string;
  scopes: Scope[];
  created_at: string;
  expires_at: string;
}

/**
 * Creates a key; only an owner of the workspace may, and only while the workspace holds fewer than
 * `maxActive` working keys (MAX_ACTIVE_API_KEYS as configured, else the default limit): one more
 * is a 409 LIMIT_REACHED, counted in the insert's own transaction (`insertUnderCap`), so the API
 * and the command line enforce the same limit and concurrent creations never pass it. The secret
 * is returned once, never stored.
 */
export async function createApiKey(
  store: Store,
  input: { workspaceId: string; userId: string; name: string; scopes?: readonly Scope[]; expiresAt?: Date; maxActive?: number },
  now: Date = new Date(),
): Promise<CreatedApiKey> {
  if (!(await store.accounts.getWorkspace(input.workspaceId))) throw new KeyRefusal(`workspace ${input.workspaceId} does not exist`);
  if (!(await store.accounts.getUser(input.userId))) throw new KeyRefusal(`user ${input.userId} does not exist`);
  const membership = await store.accounts.getMembership(input.workspaceId, input.userId);
  if (membership?.role !== 'owner') throw new KeyRefusal('only an owner of the workspace can create keys');
  if (input.name.trim() === '') throw new KeyRefusal('the key needs a name');
  const expiresAt = input.expiresAt ?? new Date(now.getTime() + ONE_YEAR_MS);
  if (expiresAt.getTime() <= now.getTime()) throw new KeyRefusal('expires-at must be in the future');
  const key = createSecretToken(API_KEY_PREFIX);
  const scopes = normaliseScopes(input.scopes ?? ALL_SCOPES);
  const row = {
    id: randomUUID(),
    workspace_id: input.workspaceId,
    created_by: input.userId,
    name: input.name,
    prefix: displayPrefix(API_KEY_PREFIX, key),
    key_hash: hashToken(key),
    scopes: scopes.join(' '),
    created_at: now.toISOString(),
    expires_at: expiresAt.toISOString(),
    revoked_at: null,
    last_used_at: null,
  };
  const maxActive = input.maxActive ?? DEFAULT_WORKSPACE_LIMITS.activeApiKeys;
  if (!(await store.apiKeys.insertUnderCap(row, maxActive))) {
    throw new ServiceError('LIMIT_REACHED', `The workspace already holds ${maxActive} active API keys, as many as it may: revoke one first.`);
  }
  return {
    id: row.id,
    key,
    prefix: row.prefix,
    name: row.name,
    scopes,
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

export type KeyCheck =
  | { ok: true; principal: KeyPrincipalRow }
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' | 'expired' | 'orphaned' };

/**
 * Resolves a presented key. A malformed value or a wrong checksum is refused before any database
 * read. No cache: a revocation, an expiry or a removed member takes effect on the next request.
 */
export async function checkApiKey(store: Store, presented: string, now: Date): Promise<KeyCheck> {
  if (!isWellFormedToken(API_KEY_PREFIX, presented)) return { ok: false, reason: 'malformed' };
  const principal = await store.apiKeys.principalByHash(hashToken(presented));
  if (!principal) return { ok: false, reason: 'unknown' };
  if (principal.revoked_at !== null) return { ok: false, reason: 'revoked' };
  if (principal.expires_at <= now.toISOString()) return { ok: false, reason: 'expired' };
  if (principal.member_role === null) return { ok: false, reason: 'orphaned' };
  return { ok: true, principal };
}
