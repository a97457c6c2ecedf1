import type { MemberPrincipalRow, MemberTokenRow, MemberTokenStore } from '../interfaces/member-tokens.js';
import { MEMBER_PRINCIPAL_BY_HASH } from '../principal-lookups.js';
import { row, rows, run, type Queryable } from './query.js';

/** Member access tokens on PostgreSQL (`../interfaces/member-tokens.ts`). */
export function createPostgresMemberTokenStore(db: Queryable): MemberTokenStore {
  return {
    async insert(token: MemberTokenRow): Promise<void> {
      await run(db, `INSERT INTO member_tokens (id, workspace_id, user_id, name, prefix, token_hash, created_at, revoked_at)
        VALUES (@id, @workspace_id, @user_id, @name, @prefix, @token_hash, @created_at, @revoked_at)`, token);
    },
    principalByHash: (hash: string) =>
      row<MemberPrincipalRow>(db, MEMBER_PRINCIPAL_BY_HASH, [hash]),
    get: (id: string) => row<MemberTokenRow>(db, 'SELECT * FROM member_tokens WHERE id = ?', [id]),
    listByWorkspace: (workspaceId: string) => rows<MemberTokenRow>(db, 'SELECT * FROM member_tokens WHERE workspace_id = ? ORDER BY created_at, id', [workspaceId]),
    async revoke(id: string, now: string): Promise<boolean> {
      return (await run(db, 'UPDATE member_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [now, id])) === 1;
    },
    revokeAllOf: (workspaceId: string, userId: string, now: string) =>
      run(db, 'UPDATE member_tokens SET revoked_at = ? WHERE workspace_id = ? AND user_id = ? AND revoked_at IS NULL', [now, workspaceId, userId]),
  };
}
