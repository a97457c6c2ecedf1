import type { Db } from './database.js';
import type { Role } from './accounts.js';
import { MEMBER_PRINCIPAL_BY_HASH } from './principal-lookups.js';

export interface MemberTokenRow {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  prefix: string;
  token_hash: string;
  created_at: string;
  revoked_at: string | null;
}

/** Everything an administration request needs to know about its token, in one indexed lookup. */
export interface MemberPrincipalRow {
  token_id: string;
  revoked_at: string | null;
  workspace_id: string;
  workspace_name: string;
  user_id: string;
  user_name: string;
  user_email: string;
  /** null when the token's user is no longer a member of the workspace. */
  member_role: Role | null;
}

export function createMemberTokenStore(db: Db) {
  const statements = {
    insert: db.prepare(
      `INSERT INTO member_tokens (id, workspace_id, user_id, name, prefix, token_hash, created_at, revoked_at)
       VALUES (@id, @workspace_id, @user_id, @name, @prefix, @token_hash, @created_at, @revoked_at)`,
    ),
    principalByHash: db.prepare(MEMBER_PRINCIPAL_BY_HASH),
    get: db.prepare('SELECT * FROM member_tokens WHERE id = ?'),
    listByWorkspace: db.prepare('SELECT * FROM member_tokens WHERE workspace_id = ? ORDER BY created_at, id'),
    revoke: db.prepare('UPDATE member_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
    revokeAllOf: db.prepare('UPDATE member_tokens SET revoked_at = ? WHERE workspace_id = ? AND user_id = ? AND revoked_at IS NULL'),
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

export type MemberTokenStore = ReturnType<typeof createMemberTokenStore>;
