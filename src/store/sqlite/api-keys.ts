import type { Db } from './database.js';
import type { ApiKeyChange, ApiKeyRow, ApiKeyStore, KeyPrincipalRow, KeyUse } from '../interfaces/api-keys.js';
import type { CreatedPosition } from '../interfaces/list-pages.js';
import { API_KEY_SQL } from '../api-key-statements.js';
import { KEY_PRINCIPAL_BY_HASH } from '../principal-lookups.js';
import { writeWithoutWaiting } from './database.js';
import { prepareCreatedOrderList } from './keyset.js';
import { promised } from './promised.js';
import { prepareCappedInsert } from './capped-insert.js';

/** API keys, synchronously: for statements inside one SQLite transaction. */
export function createSyncApiKeyStore(db: Db) {
  const statements = {
    principalByHash: db.prepare(KEY_PRINCIPAL_BY_HASH),
    get: db.prepare(API_KEY_SQL.get),
    listByWorkspace: db.prepare(API_KEY_SQL.listByWorkspace),
    revoke: db.prepare(API_KEY_SQL.revoke),
    update: db.prepare(API_KEY_SQL.update),
    listActiveBy: db.prepare(API_KEY_SQL.listActiveBy),
    revokeAllBy: db.prepare(API_KEY_SQL.revokeAllBy),
    touch: db.prepare(API_KEY_SQL.touch),
  };

  const listPage = prepareCreatedOrderList(db, API_KEY_SQL.page);

  return {
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
    /** The keys a user created in the workspace that still work at `now`. */
    listActiveBy(workspaceId: string, userId: string, now: string): ApiKeyRow[] {
      return statements.listActiveBy.all(workspaceId, userId, now) as ApiKeyRow[];
    },
    /** Revokes every key a user created in the workspace (they left it); returns how many. */
    revokeAllBy(workspaceId: string, userId: string, now: string): number {
      return statements.revokeAllBy.run(now, workspaceId, userId).changes;
    },
    /** Returns false when the key does not exist or was already revoked. */
    revoke(id: string, now: string): boolean {
      return statements.revoke.run(now, id).changes === 1;
    },
    /** Returns false when the key does not exist or is revoked. */
    update(id: string, change: ApiKeyChange): boolean {
      return statements.update.run(change.name ?? null, change.scopes ?? null, id, change.scopesWere ?? null).changes === 1;
    },
    /** Records use unless a use later than `notBefore` is already recorded (the in-memory check agrees at the boundary). */
    touch(id: string, now: string, notBefore: string): void {
      statements.touch.run(now, id, notBefore);
    },
  };
}

export function createApiKeyStore(db: Db): ApiKeyStore {
  const keys = createSyncApiKeyStore(db);
  const insertUnderCap = prepareCappedInsert<ApiKeyRow>(db, API_KEY_SQL.countActive, API_KEY_SQL.insert);
  const recordUses = db.transaction((uses: readonly KeyUse[]) => {
    for (const use of uses) keys.touch(use.keyId, use.at, use.notBefore);
  });
  return promised({
    ...keys,
    insertUnderCap,
    recordUses: (uses: readonly KeyUse[]): void => writeWithoutWaiting(db, () => recordUses(uses)),
  });
}
