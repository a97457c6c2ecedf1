import type { Db } from './database.js';
import type { Role, SubscriptionStatus } from './accounts.js';
import { prepareCreatedOrderList, type CreatedPosition } from './keyset.js';
import { KEY_PRINCIPAL_BY_HASH } from './principal-lookups.js';

export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  created_by: string;
  name: string;
  prefix: string;
  key_hash: string;
  scopes: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** Everything a request needs to know about its key, read in one indexed lookup. */
export interface KeyPrincipalRow {
  key_id: string;
  key_name: string;
  key_prefix: string;
  scopes: string;
  key_created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  workspace_id: string;
  workspace_name: string;
  workspace_created_at: string;
  subscription_status: SubscriptionStatus;
  user_id: string;
  user_name: string;
  user_email: string;
  /** null when the key's creator is no longer a member of the workspace. */
  member_role: Role | null;
}

export function createApiKeyStore(db: Db) {
  const statements = {
    insert: db.prepare(
      `INSERT INTO api_keys (id, workspace_id, created_by, name, prefix, key_hash, scopes, created_at, expires_at, revoked_at, last_used_at)
       VALUES (@id, @workspace_id, @created_by, @name, @prefix, @key_hash, @scopes, @created_at, @expires_at, @revoked_at, @last_used_at)`,
    ),
    principalByHash: db.prepare(KEY_PRINCIPAL_BY_HASH),
    get: db.prepare('SELECT * FROM api_keys WHERE id = ?'),
    listByWorkspace: db.prepare('SELECT * FROM api_keys WHERE workspace_id = ? ORDER BY created_at, id'),
    revoke: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    revokeAllBy: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND created_by = ? AND revoked_at IS NULL'),
    touch: db.prepare(
      'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
    ),
  };

  const listPage = prepareCreatedOrderList(db, {
    select: 'SELECT * FROM api_keys',
    where: 'workspace_id = @workspace_id',
    createdAt: 'created_at',
    id: 'id',
  });

  return {
    insert(row: ApiKeyRow): void {
      statements.insert.run(row);
    },
    principalByHash(hash: string): KeyPrincipalRow | undefined {
      return statements.principalByHash.get(hash) as KeyPrincipalRow | undefined;
    },
    get(id: string): ApiKeyRow | undefined {
      return statements.get.get(id) as ApiKeyRow | undefined;
    },
    listByWorkspace(workspaceId: string): ApiKeyRow[] {
      return statements.listByWorkspace.all(workspaceId) as ApiKeyRow[];
    },
    /** Up to `limit` keys of the workspace after `position`, in (created_at, id) order. */
    listPage(workspaceId: string, limit: number, position?: CreatedPosition): ApiKeyRow[] {
      return listPage<ApiKeyRow>({ workspace_id: workspaceId }, limit, position);
    },
    /** Revokes every key a user created in the workspace (they left it); returns how many. */
    revokeAllBy(workspaceId: string, userId: string, now: string): number {
      return statements.revokeAllBy.run(now, workspaceId, userId).changes;
    },
    /** Returns false when the key does not exist or was already revoked. */
    revoke(id: string, now: string): boolean {
      return statements.revoke.run(now, id).changes === 1;
    },
    /** Records use unless a use later than `notBefore` is already recorded (the in-memory check agrees at the boundary). */
    touch(id: string, now: string, notBefore: string): void {
      statements.touch.run(now, id, notBefore);
    },
  };
}

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;
