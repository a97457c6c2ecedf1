// Statements both databases run as written, word for word: the SQLite store
// (sqlite/member-tokens.ts) and the PostgreSQL one (postgres/member-tokens.ts) share them.

export const MEMBER_TOKEN_SQL = {
  insert: `INSERT INTO member_tokens (id, workspace_id, user_id, name, prefix, token_hash, created_at, revoked_at)
    VALUES (@id, @workspace_id, @user_id, @name, @prefix, @token_hash, @created_at, @revoked_at)`,
  get: 'SELECT * FROM member_tokens WHERE id = ?',
  listByWorkspace: 'SELECT * FROM member_tokens WHERE workspace_id = ? ORDER BY created_at, id',
  revoke: 'UPDATE member_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  /** Every token of a user in a workspace (they left it). */
  revokeAllOf: 'UPDATE member_tokens SET revoked_at = ? WHERE workspace_id = ? AND user_id = ? AND revoked_at IS NULL',
  /** The same, answering the ids it revoked (each one an entry of the audit log). */
  revokeAllOfReturningIds: 'UPDATE member_tokens SET revoked_at = ? WHERE workspace_id = ? AND user_id = ? AND revoked_at IS NULL RETURNING id',
} as const;
