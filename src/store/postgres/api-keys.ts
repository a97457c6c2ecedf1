import type { ApiKeyChange, ApiKeyRow, ApiKeyStore, KeyPrincipalRow, KeyUse } from '../interfaces/api-keys.js';
import type { CreatedPosition } from '../interfaces/list-pages.js';
import { prepareCreatedOrderList } from './keyset.js';
import { API_KEY_SQL } from '../api-key-statements.js';
import { KEY_PRINCIPAL_BY_HASH } from '../principal-lookups.js';
import type { PostgresPool } from './pool.js';
import { row, rows, run } from './query.js';
import { inTransactionWithoutWaiting } from './without-waiting.js';
import { prepareCappedInsert } from './capped-insert.js';

/** API keys on PostgreSQL (`../interfaces/api-keys.ts`). */
export function createPostgresApiKeyStore(db: PostgresPool): ApiKeyStore {
  const listPage = prepareCreatedOrderList(db, API_KEY_SQL.page);

  return {
    insertUnderCap: prepareCappedInsert<ApiKeyRow>(db, API_KEY_SQL.countActive, API_KEY_SQL.insert),
    principalByHash: (hash: string) =>
      row<KeyPrincipalRow>(db, KEY_PRINCIPAL_BY_HASH, [hash]),
    get: (id: string) => row<ApiKeyRow>(db, API_KEY_SQL.get, [id]),
    listByWorkspace: (workspaceId: string) => rows<ApiKeyRow>(db, API_KEY_SQL.listByWorkspace, [workspaceId]),
    listPage: (workspaceId: string, limit: number, position?: CreatedPosition) => listPage<ApiKeyRow>({ workspace_id: workspaceId }, limit, position),
    revokeAllBy: (workspaceId: string, userId: string, now: string) => run(db, API_KEY_SQL.revokeAllBy, [now, workspaceId, userId]),
    async revoke(id: string, now: string): Promise<boolean> {
      return (await run(db, API_KEY_SQL.revoke, [now, id])) === 1;
    },
    async update(id: string, change: ApiKeyChange): Promise<boolean> {
      return (await run(db, API_KEY_SQL.update, [change.name ?? null, change.scopes ?? null, id, change.scopesWere ?? null])) === 1;
    },
    async touch(id: string, now: string, notBefore: string): Promise<void> {
      await run(db, API_KEY_SQL.touch, [now, id, notBefore]);
    },
    // A background write: it gives up (DatabaseBusyError) rather than wait on a row lock, as the interface says.
    async recordUses(uses: readonly KeyUse[]): Promise<void> {
      if (uses.length === 0) return;
      await inTransactionWithoutWaiting(db, async (tx) => {
        for (const use of uses) await run(tx, API_KEY_SQL.touch, [use.at, use.keyId, use.notBefore]);
      });
    },
  };
}
