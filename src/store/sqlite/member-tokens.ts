import type { Db } from './database.js';
import type { MemberPrincipalRow, MemberTokenRow, MemberTokenStore } from '../interfaces/member-tokens.js';
import { promised } from './promised.js';

/** Member tokens, synchronously: for statements inside one SQLite transaction. */
export function createSyncMemberTokenStore(db: Db) {
  const statements = {
    insert: db.prepare(
      `INSERT INTO member_tokens (id, workspace_id, user_id, name, prefix, token_hash, created_at, revoked_at)
       VALUES (@id, @workspace_id, @user_id, @name, @prefix, @token_hash, @created_at, @revoked_at)`,
    ),
    principalByHash: db.prepare(
      `SELECT t.id AS token_id, t.revoked_at,
              w.id AS workspace_id, w.name AS workspace_name,
              u.id AS user_id, u.name AS user_name, u.email AS user_email,
              m.role AS member_role
       FROM member_tokens t
       JOIN workspaces w ON w.id = t.workspace_id
       JOIN users u ON u.id = t.user_id
       LEFT JOIN memberships m ON m.workspace_id = t.workspace_id AND m.user_id = t.user_id
       WHERE t.token_hash = ?`,
    ),
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

export function createMemberTokenStore(db: Db): MemberTokenStore {
  return promised(createSyncMemberTokenStore(db));
}
