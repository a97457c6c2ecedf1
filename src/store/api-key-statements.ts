// Statements both databases run as written, word for word: the SQLite store (sqlite/api-keys.ts)
// and the PostgreSQL one (postgres/api-keys.ts) share them.

export const API_KEY_SQL = {
  insert: `INSERT INTO api_keys (id, workspace_id, created_by, name, prefix, key_hash, scopes, created_at, expires_at, revoked_at, last_used_at)
    VALUES (@id, @workspace_id, @created_by, @name, @prefix, @key_hash, @scopes, @created_at, @expires_at, @revoked_at, @last_used_at)`,
  /** The workspace's keys that work at the new key's creation time (neither revoked nor expired): what the cap counts. */
  countActive: 'SELECT count(*) FROM api_keys WHERE workspace_id = @workspace_id AND revoked_at IS NULL AND expires_at > @created_at',
  get: 'SELECT * FROM api_keys WHERE id = ?',
  listByWorkspace: 'SELECT * FROM api_keys WHERE workspace_id = ? ORDER BY created_at, id',
  revoke: 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
  /**
   * A new name and/or scopes (NULL keeps the stored one); a revoked key is left as it is, and so is
   * one whose scopes are no longer the ones given last (NULL: whatever they are), which the
   * caller read and checked the new scopes against: a compare-and-set, so two narrowings at once
   * cannot both pass their check on the same scopes and the second widen what the first removed.
   */
  update: `UPDATE api_keys SET name = COALESCE(?, name), scopes = COALESCE(?, scopes)
    WHERE id = ? AND revoked_at IS NULL AND scopes = COALESCE(?, scopes)`,
  /** The keys a user created in a workspace that still work (neither revoked nor expired at `now`). */
  listActiveBy: `SELECT * FROM api_keys WHERE workspace_id = ? AND created_by = ? AND revoked_at IS NULL AND expires_at > ?
    ORDER BY created_at, id`,
  /** Every key a user created in a workspace (they left it). */
  revokeAllBy: 'UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND created_by = ? AND revoked_at IS NULL',
  /** The same, answering the ids it revoked (each one an entry of the audit log). */
  revokeAllByReturningIds: 'UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND created_by = ? AND revoked_at IS NULL RETURNING id',
  /** A use, unless a later one is already recorded. */
  touch: 'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
  /** The key list's keyset pages (sqlite/keyset.ts, postgres/keyset.ts). */
  page: { select: 'SELECT * FROM api_keys', where: 'workspace_id = @workspace_id', createdAt: 'created_at', id: 'id' },
} as const;
