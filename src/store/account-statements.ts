// Statements both databases run as written, word for word: the SQLite store (sqlite/accounts.ts)
// and the PostgreSQL one (postgres/accounts.ts) share them. Where the dialects differ (finding a
// user by e-mail under NOCASE, locking the owners), each keeps its own.

/** What a membership read selects and joins: the membership with its user's name and e-mail. */
const MEMBERSHIP_SELECT = `SELECT m.workspace_id, m.user_id, m.role, m.created_at, u.name AS user_name, u.email AS user_email
  FROM memberships m JOIN users u ON u.id = m.user_id`;

export const ACCOUNT_SQL = {
  insertWorkspace: 'INSERT INTO workspaces (id, name, subscription_status, created_at) VALUES (@id, @name, @subscription_status, @created_at)',
  getWorkspace: 'SELECT id, name, subscription_status, created_at FROM workspaces WHERE id = ?',
  countWorkspaces: 'SELECT count(*) FROM workspaces',
  setSubscription: 'UPDATE workspaces SET subscription_status = ? WHERE id = ?',
  insertUser: 'INSERT INTO users (id, email, name, created_at) VALUES (@id, @email, @name, @created_at)',
  getUser: 'SELECT id, email, name, created_at FROM users WHERE id = ?',
  upsertMembership: `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role`,
  setRole: 'UPDATE memberships SET role = ? WHERE workspace_id = ? AND user_id = ?',
  deleteMembership: 'DELETE FROM memberships WHERE workspace_id = ? AND user_id = ?',
  getMembership: `${MEMBERSHIP_SELECT} WHERE m.workspace_id = ? AND m.user_id = ?`,
  countOwners: "SELECT count(*) FROM memberships WHERE workspace_id = ? AND role = 'owner'",
  listMemberships: `${MEMBERSHIP_SELECT} WHERE m.workspace_id = ? ORDER BY m.created_at, m.user_id`,
  /** The member list's keyset pages (sqlite/keyset.ts, postgres/keyset.ts). */
  membershipPage: { select: MEMBERSHIP_SELECT, where: 'm.workspace_id = @workspace_id', createdAt: 'm.created_at', id: 'm.user_id' },
} as const;
