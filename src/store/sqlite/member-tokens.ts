import type { Db } from './database.js';
import type { MemberPrincipalRow, MemberTokenRow, MemberTokenStore } from '../interfaces/member-tokens.js';
import { MEMBER_TOKEN_SQL } from '../member-token-statements.js';
import { MEMBER_PRINCIPAL_BY_HASH } from '../principal-lookups.js';
import { promised } from './promised.js';

/** Member tokens, synchronously: for statements inside one SQLite transaction. */
function createSyncMemberTokenStore(db: Db) {
  const statements = {
    insert: db.prepare(MEMBER_TOKEN_SQL.insert),
    principalByHash: db.prepare(MEMBER_PRINCIPAL_BY_HASH),
    get: db.prepare(MEMBER_TOKEN_SQL.get),
    listByWorkspace: db.prepare(MEMBER_TOKEN_SQL.listByWorkspace),
    revoke: db.prepare(MEMBER_TOKEN_SQL.revoke),
    revokeAllOf: db.prepare(MEMBER_TOKEN_SQL.revokeAllOf),
  };

  return {
    insert(row: MemberTokenRow): void {
      statements.insert.run(row);
    },
    principalByHash(hash: string): MemberPrincipalRow | undefined {
      return statements.principalByHash.get(hash) as MemberPrincipalRow | undefined;
    },
    get(id: string): MemberTokenRow | undefined {
      return statements.get.get(id) as MemberTokenRow | undefined;
    },
    listByWorkspace(workspaceId: string): MemberTokenRow[] {
      return statements.listByWorkspace.all(workspaceId) as MemberTokenRow[];
    },
    /** Returns false when the token does not exist or was already revoked. */
    revoke(id: string, now: string): boolean {
      return statements.revoke.run(now, id).changes === 1;
    },
    /** Revokes every token of a user in the workspace (they left it); returns how many. */
    revokeAllOf(workspaceId: string, userId: string, now: string): number {
      return statements.revokeAllOf.run(now, workspaceId, userId).changes;
    },
  };
}

export function createMemberTokenStore(db: Db): MemberTokenStore {
  return promised(createSyncMemberTokenStore(db));
}
