import type { AccountStore, MemberRemoval, MembershipRow, Role, SubscriptionStatus, UserRow, WorkspaceRow } from '../interfaces/accounts.js';
import type { CreatedPosition } from '../interfaces/list-pages.js';
import { prepareCreatedOrderList } from './keyset.js';
import type { PostgresPool } from './pool.js';
import { inTransaction, row, rows, run, value, type Queryable } from './query.js';

const MEMBERSHIP = `SELECT m.workspace_id, m.user_id, m.role, m.created_at, u.name AS user_name, u.email AS user_email
  FROM memberships m JOIN users u ON u.id = m.user_id`;

/** Workspaces, users and memberships on PostgreSQL (`../interfaces/accounts.ts`). */
export function createPostgresAccountStore(pool: PostgresPool): AccountStore {
  const accounts = createAccountStatements(pool);
  return {
    ...accounts,
    async insertWorkspaceWithOwner(workspace: WorkspaceRow, owner: UserRow, now: string): Promise<void> {
      await inTransaction(pool, async (tx) => {
        const on = createAccountStatements(tx);
        await on.insertWorkspace(workspace);
        await on.insertUser(owner);
        await on.upsertMembership(workspace.id, owner.id, 'owner', now);
      });
    },
    removeMember: (workspaceId: string, userId: string, now: string): Promise<MemberRemoval> =>
      inTransaction(pool, async (tx) => {
        // The workspace's owner rows are locked first, so two removals at once cannot both see two
        // owners (SQLite takes its write lock for the same reason).
        await rows(tx, "SELECT user_id FROM memberships WHERE workspace_id = ? AND role = 'owner' FOR UPDATE", [workspaceId]);
        const on = createAccountStatements(tx);
        const membership = await on.getMembership(workspaceId, userId);
        if (!membership) return 'not_a_member';
        if (membership.role === 'owner' && (await on.countOwners(workspaceId)) <= 1) return 'last_owner';
        await on.deleteMembership(workspaceId, userId);
        await run(tx, 'UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND created_by = ? AND revoked_at IS NULL', [now, workspaceId, userId]);
        await run(tx, 'UPDATE member_tokens SET revoked_at = ? WHERE workspace_id = ? AND user_id = ? AND revoked_at IS NULL', [now, workspaceId, userId]);
        return 'removed';
      }),
  };
}

function createAccountStatements(db: Queryable): Omit<AccountStore, 'insertWorkspaceWithOwner' | 'removeMember'> {
  const listMembershipPage = prepareCreatedOrderList(db, {
    select: MEMBERSHIP,
    where: 'm.workspace_id = @workspace_id',
    createdAt: 'm.created_at',
    id: 'm.user_id',
  });

  return {
    async insertWorkspace(workspace: WorkspaceRow): Promise<void> {
      await run(db, 'INSERT INTO workspaces (id, name, subscription_status, created_at) VALUES (@id, @name, @subscription_status, @created_at)', workspace);
    },
    getWorkspace: (id: string) => row<WorkspaceRow>(db, 'SELECT id, name, subscription_status, created_at FROM workspaces WHERE id = ?', [id]),
    countWorkspaces: async () => (await value<number>(db, 'SELECT count(*) FROM workspaces'))!,
    async setSubscription(id: string, status: SubscriptionStatus): Promise<boolean> {
      return (await run(db, 'UPDATE workspaces SET subscription_status = ? WHERE id = ?', [status, id])) === 1;
    },
    async insertUser(user: UserRow): Promise<void> {
      await run(db, 'INSERT INTO users (id, email, name, created_at) VALUES (@id, @email, @name, @created_at)', user);
    },
    getUser: (id: string) => row<UserRow>(db, 'SELECT id, email, name, created_at FROM users WHERE id = ?', [id]),
    // SQLite compares the address under NOCASE (ASCII letters only); lower() under "C" folds the
    // same letters, and this form uses the unique index users_email_nocase (migration 001).
    getUserByEmail: (email: string) =>
      row<UserRow>(db, 'SELECT id, email, name, created_at FROM users WHERE lower(email) = lower(? COLLATE "C")', [email]),
    async upsertMembership(workspaceId: string, userId: string, role: Role, now: string): Promise<void> {
      await run(db, `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role`, [workspaceId, userId, role, now]);
    },
    async deleteMembership(workspaceId: string, userId: string): Promise<boolean> {
      return (await run(db, 'DELETE FROM memberships WHERE workspace_id = ? AND user_id = ?', [workspaceId, userId])) === 1;
    },
    getMembership: (workspaceId: string, userId: string) =>
      row<MembershipRow>(db, `${MEMBERSHIP} WHERE m.workspace_id = ? AND m.user_id = ?`, [workspaceId, userId]),
    listMemberships: (workspaceId: string) =>
      rows<MembershipRow>(db, `${MEMBERSHIP} WHERE m.workspace_id = ? ORDER BY m.created_at, m.user_id`, [workspaceId]),
    listMembershipPage: (workspaceId: string, limit: number, position?: CreatedPosition) =>
      listMembershipPage<MembershipRow>({ workspace_id: workspaceId }, limit, position),
    countOwners: async (workspaceId: string) =>
      (await value<number>(db, "SELECT count(*) FROM memberships WHERE workspace_id = ? AND role = 'owner'", [workspaceId]))!,
  };
}
