import type { ApiKeyRow, ApiKeyStore, KeyPrincipalRow, KeyUse } from '../interfaces/api-keys.js';
import type { CreatedPosition } from '../interfaces/list-pages.js';
import { prepareCreatedOrderList } from './keyset.js';
import { KEY_PRINCIPAL_BY_HASH } from '../principal-lookups.js';
import type { PostgresPool } from './pool.js';
import { row, rows, run } from './query.js';
import { inTransactionWithoutWaiting } from './without-waiting.js';

const TOUCH = 'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)';

/** API keys on PostgreSQL (`../interfaces/api-keys.ts`). */
export function createPostgresApiKeyStore(db: PostgresPool): ApiKeyStore {
  const listPage = prepareCreatedOrderList(db, { select: 'SELECT * FROM api_keys', where: 'workspace_id = @workspace_id', createdAt: 'created_at', id: 'id' });

  return {
    async insert(key: ApiKeyRow): Promise<void> {
      await run(db, `INSERT INTO api_keys (id, workspace_id, created_by, name, prefix, key_hash, scopes, created_at, expires_at, revoked_at, last_used_at)
        VALUES (@id, @workspace_id, @created_by, @name, @prefix, @key_hash, @scopes, @created_at, @expires_at, @revoked_at, @last_used_at)`, key);
    },
    principalByHash: (hash: string) =>
      row<KeyPrincipalRow>(db, KEY_PRINCIPAL_BY_HASH, [hash]),
    get: (id: string) => row<ApiKeyRow>(db, 'SELECT * FROM api_keys WHERE id = ?', [id]),
    listByWorkspace: (workspaceId: string) => rows<ApiKeyRow>(db, 'SELECT * FROM api_keys WHERE workspace_id = ? ORDER BY created_at, id', [workspaceId]),
    listPage: (workspaceId: string, limit: number, position?: CreatedPosition) => listPage<ApiKeyRow>({ workspace_id: workspaceId }, limit, position),
    revokeAllBy: (workspaceId: string, userId: string, now: string) =>
      run(db, 'UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND created_by = ? AND revoked_at IS NULL', [now, workspaceId, userId]),
    async revoke(id: string, now: string): Promise<boolean> {
      return (await run(db, 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now, id])) === 1;
    },
    async touch(id: string, now: string, notBefore: string): Promise<void> {
      await run(db, TOUCH, [now, id, notBefore]);
    },
    // A background write: it gives up (DatabaseBusyError) rather than wait on a row lock, as the interface says.
    async recordUses(uses: readonly KeyUse[]): Promise<void> {
      if (uses.length === 0) return;
      await inTransactionWithoutWaiting(db, async (tx) => {
        for (const use of uses) await run(tx, TOUCH, [use.at, use.keyId, use.notBefore]);
      });
    },
  };
}
