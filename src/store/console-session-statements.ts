// Statements both databases run as written, word for word: the SQLite store
// (sqlite/console-sessions.ts) and the PostgreSQL one (postgres/console-sessions.ts) share them.

export const CONSOLE_SESSION_SQL = {
  insertLink: `INSERT INTO console_sign_in_links (id, workspace_id, user_id, link_hash, created_at, expires_at, used_at)
    VALUES (@id, @workspace_id, @user_id, @link_hash, @created_at, @expires_at, @used_at)`,
  /** One statement: a link two requests present at once is spent by one of them only. */
  spendLink: `UPDATE console_sign_in_links SET used_at = ?
    WHERE link_hash = ? AND used_at IS NULL AND expires_at > ?
    RETURNING id, workspace_id, user_id, link_hash, created_at, expires_at, used_at`,
  linkByHash: 'SELECT id, workspace_id, user_id, link_hash, created_at, expires_at, used_at FROM console_sign_in_links WHERE link_hash = ?',
  insertSession: `INSERT INTO console_sessions (id, workspace_id, user_id, token_id, link_id, role, session_hash, created_at, last_seen_at, ended_at)
    VALUES (@id, @workspace_id, @user_id, @token_id, @link_id, @role, @session_hash, @created_at, @last_seen_at, @ended_at)`,
  principalByHash: `SELECT s.id AS session_id, s.workspace_id, w.name AS workspace_name,
       u.id AS user_id, u.name AS user_name, u.email AS user_email,
       s.token_id, t.revoked_at AS token_revoked_at, s.role AS signed_in_role, m.role AS member_role,
       s.created_at, s.last_seen_at, s.ended_at
FROM console_sessions s
JOIN workspaces w ON w.id = s.workspace_id
JOIN users u ON u.id = s.user_id
LEFT JOIN member_tokens t ON t.id = s.token_id
LEFT JOIN memberships m ON m.workspace_id = s.workspace_id AND m.user_id = s.user_id
WHERE s.session_hash = ?`,
  touch: 'UPDATE console_sessions SET last_seen_at = ? WHERE id = ? AND ended_at IS NULL',
  end: 'UPDATE console_sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL',
} as const;
