import type { AccountStore, MemberRemoval, MembershipRow, Role, RoleChange, SubscriptionStatus, UserRow, WorkspaceRow } from '../interfaces/accounts.js';
import type { ApiKeyRow } from '../interfaces/api-keys.js';
import type { CreatedPosition } from '../interfaces/list-pages.js';
import { ACCOUNT_SQL } from '../account-statements.js';
import { API_KEY_SQL } from '../api-key-statements.js';
import { MEMBER_TOKEN_SQL } from '../member-token-statements.js';
import { prepareCreatedOrderList } from './keyset.js';
import type { PostgresPool } from './pool.js';
import { inTransaction, row, rows, run, value, type Queryable } from './query.js';

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
        if (!membership) return { outcome: 'not_a_member' };
        if (membership.role === 'owner' && (await on.countOwners(workspaceId)) <= 1) return { outcome: 'last_owner' };
        await on.deleteMembership(workspaceId, userId);
        const revokedKeys = await rows<{ id: string }>(tx, API_KEY_SQL.revokeAllByReturningIds, [now, workspaceId, userId]);
        const revokedTokens = await rows<{ id: string }>(tx, MEMBER_TOKEN_SQL.revokeAllOfReturningIds, [now, workspaceId, userId]);
        return { outcome: 'removed', revokedKeyIds: revokedKeys.map((k) => k.id), revokedTokenIds: revokedTokens.map((t) => t.id) };
      }),
    changeRole: (workspaceId: string, userId: string, role: Role, now: string, options: { revokeKeys: boolean }): Promise<RoleChange> =>
      inTransaction(pool, async (tx) => {
        // Locked as removeMember locks them: two demotions at once cannot both see two owners.
        await rows(tx, "SELECT user_id FROM memberships WHERE workspace_id = ? AND role = 'owner' FOR UPDATE", [workspaceId]);
        const on = createAccountStatements(tx);
        const membership = await on.getMembership(workspaceId, userId);
        if (!membership) return { outcome: 'not_a_member' };
        if (membership.role === 'owner' && role !== 'owner' && (await on.countOwners(workspaceId)) <= 1) return { outcome: 'last_owner' };
        await run(tx, ACCOUNT_SQL.setRole, [role, workspaceId, userId]);
        const keys = await rows<ApiKeyRow>(tx, API_KEY_SQL.listActiveBy, [workspaceId, userId, now]);
        if (options.revokeKeys) await run(tx, API_KEY_SQL.revokeAllBy, [now, workspaceId, userId]);
        return { outcome: 'changed', membership: { ...membership, role }, keys: options.revokeKeys ? keys.map((k) => ({ ...k, revoked_at: now })) : keys };
      }),
  };
}

function createAccountStatements(db: Queryable): Omit<AccountStore, 'insertWorkspaceWithOwner' | 'removeMember' | 'changeRole'> {
  const listMembershipPage = prepareCreatedOrderList(db, ACCOUNT_SQL.membershipPage);

  return {
    async insertWorkspace(workspace: WorkspaceRow): Promise<void> {
      await run(db, ACCOUNT_SQL.insertWorkspace, workspace);
    },
    getWorkspace: (id: string) => row<WorkspaceRow>(db, ACCOUNT_SQL.getWorkspace, [id]),
    countWorkspaces: async () => (await value<number>(db, ACCOUNT_SQL.countWorkspaces))!,
    async setSubscription(id: string, status: SubscriptionStatus): Promise<boolean> {
      return (await run(db, ACCOUNT_SQL.setSubscription, [status, id])) === 1;
    },
    async insertUser(user: UserRow): Promise<void> {
      await run(db, ACCOUNT_SQL.insertUser, user);
    },
    getUser: (id: string) => row<UserRow>(db, ACCOUNT_SQL.getUser, [id]),
    // SQLite compares the address under NOCASE (ASCII letters only); lower() under "C" folds the
    // same letters, and this form uses the unique index users_email_nocase (migration 001).
    getUserByEmail: (email: string) =>
      row<UserRow>(db, 'SELECT id, email, name, created_at FROM users WHERE lower(email) = lower(? COLLATE "C")', [email]),
    async upsertMembership(workspaceId: string, userId: string, role: Role, now: string): Promise<void> {
      await run(db, ACCOUNT_SQL.upsertMembership, [workspaceId, userId, role, now]);
    },
    async deleteMembership(workspaceId: string, userId: string): Promise<boolean> {
      return (await run(db, ACCOUNT_SQL.deleteMembership, [workspaceId, userId])) === 1;
    },
    getMembership: (workspaceId: string, userId: string) => row<MembershipRow>(db, ACCOUNT_SQL.getMembership, [workspaceId, userId]),
    listMemberships: (workspaceId: string) => rows<MembershipRow>(db, ACCOUNT_SQL.listMemberships, [workspaceId]),
    listMembershipPage: (workspaceId: string, limit: number, position?: CreatedPosition) =>
      listMembershipPage<MembershipRow>({ workspace_id: workspaceId }, limit, position),
    countOwners: async (workspaceId: string) => (await value<number>(db, ACCOUNT_SQL.countOwners, [workspaceId]))!,
  };
}
