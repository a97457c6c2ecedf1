import type { MemberPrincipalRow, MemberTokenRow, MemberTokenStore } from '../interfaces/member-tokens.js';
import { MEMBER_TOKEN_SQL } from '../member-token-statements.js';
import { MEMBER_PRINCIPAL_BY_HASH } from '../principal-lookups.js';
import { row, rows, run, type Queryable } from './query.js';

/** Member access tokens on PostgreSQL (`../interfaces/member-tokens.ts`). */
export function createPostgresMemberTokenStore(db: Queryable): MemberTokenStore {
  return {
    async insert(token: MemberTokenRow): Promise<void> {
      await run(db, MEMBER_TOKEN_SQL.insert, token);
    },
    principalByHash: (hash: string) =>
      row<MemberPrincipalRow>(db, MEMBER_PRINCIPAL_BY_HASH, [hash]),
    get: (id: string) => row<MemberTokenRow>(db, MEMBER_TOKEN_SQL.get, [id]),
    listByWorkspace: (workspaceId: string) => rows<MemberTokenRow>(db, MEMBER_TOKEN_SQL.listByWorkspace, [workspaceId]),
    async revoke(id: string, now: string): Promise<boolean> {
      return (await run(db, MEMBER_TOKEN_SQL.revoke, [now, id])) === 1;
    },
    revokeAllOf: (workspaceId: string, userId: string, now: string) => run(db, MEMBER_TOKEN_SQL.revokeAllOf, [now, workspaceId, userId]),
  };
}
