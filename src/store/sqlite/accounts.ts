import type { Db } from './database.js';
import type { AccountStore, MemberRemoval, MembershipRow, Role, SubscriptionStatus, UserRow, WorkspaceRow } from '../interfaces/accounts.js';
import type { CreatedPosition } from '../interfaces/list-pages.js';
import { prepareCreatedOrderList } from './keyset.js';
import { promised } from './promised.js';
import { createSyncApiKeyStore } from './api-keys.js';
import { createSyncMemberTokenStore } from './member-tokens.js';

/** Workspaces, users and memberships, synchronously: for statements inside one SQLite transaction. */
export function createSyncAccountStore(db: Db) {
  const statements = {
    insertWorkspace: db.prepare(
      'INSERT INTO workspaces (id, name, subscription_status, created_at) VALUES (@id, @name, @subscription_status, @created_at)',
    ),
    getWorkspace: db.prepare('SELECT id, name, subscription_status, created_at FROM workspaces WHERE id = ?'),
    countWorkspaces: db.prepare('SELECT count(*) FROM workspaces').pluck(),
    setSubscription: db.prepare('UPDATE workspaces SET subscription_status = ? WHERE id = ?'),
    insertUser: db.prepare('INSERT INTO users (id, email, name, created_at) VALUES (@id, @email, @name, @created_at)'),
    getUser: db.prepare('SELECT id, email, name, created_at FROM users WHERE id = ?'),
    getUserByEmail: db.prepare('SELECT id, email, name, created_at FROM users WHERE email = ?'),
    upsertMembership: db.prepare(
      `INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = excluded.role`,
    ),
    deleteMembership: db.prepare('DELETE FROM memberships WHERE workspace_id = ? AND user_id = ?'),
    getMembership: db.prepare(
      `SELECT m.workspace_id, m.user_id, m.role, m.created_at, u.name AS user_name, u.email AS user_email
       FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? AND m.user_id = ?`,
    ),
    countOwners: db.prepare("SELECT count(*) FROM memberships WHERE workspace_id = ? AND role = 'owner'").pluck(),
    listMemberships: db.prepare(
      `SELECT m.workspace_id, m.user_id, m.role, m.created_at, u.name AS user_name, u.email AS user_email
       FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? ORDER BY m.created_at, m.user_id`,
    ),
  };

  const listMembershipPage = prepareCreatedOrderList(db, {
    select: `SELECT m.workspace_id, m.user_id, m.role, m.created_at, u.name AS user_name, u.email AS user_email
             FROM memberships m JOIN users u ON u.id = m.user_id`,
    where: 'm.workspace_id = @workspace_id',
    createdAt: 'm.created_at',
    id: 'm.user_id',
  });

  return {
    insertWorkspace(row: WorkspaceRow): void {
      statements.insertWorkspace.run(row);
    },
    getWorkspace(id: string): WorkspaceRow | undefined {
      return statements.getWorkspace.get(id) as WorkspaceRow | undefined;
    },
    countWorkspaces(): number {
      return statements.countWorkspaces.get() as number;
    },
    /** Returns false when no such workspace exists. */
    setSubscription(id: string, status: SubscriptionStatus): boolean {
      return statements.setSubscription.run(status, id).changes === 1;
    },
    insertUser(row: UserRow): void {
      statements.insertUser.run(row);
    },
    getUser(id: string): UserRow | undefined {
      return statements.getUser.get(id) as UserRow | undefined;
    },
    getUserByEmail(email: string): UserRow | undefined {
      return statements.getUserByEmail.get(email) as UserRow | undefined;
    },
    upsertMembership(workspaceId: string, userId: string, role: Role, now: string): void {
      statements.upsertMembership.run(workspaceId, userId, role, now);
    },
    /** Returns false when the user was not a member. */
    deleteMembership(workspaceId: string, userId: string): boolean {
      return statements.deleteMembership.run(workspaceId, userId).changes === 1;
    },
    getMembership(workspaceId: string, userId: string): MembershipRow | undefined {
      return statements.getMembership.get(workspaceId, userId) as MembershipRow | undefined;
    },
    listMemberships(workspaceId: string): MembershipRow[] {
      return statements.listMemberships.all(workspaceId) as MembershipRow[];
    },
    /** Up to `limit` members after `position` (joined at, user id), in that order. */
    listMembershipPage(workspaceId: string, limit: number, position?: CreatedPosition): MembershipRow[] {
      return listMembershipPage<MembershipRow>({ workspace_id: workspaceId }, limit, position);
    },
    countOwners(workspaceId: string): number {
      return statements.countOwners.get(workspaceId) as number;
    },
  };
}

export type SyncAccountStore = ReturnType<typeof createSyncAccountStore>;

/** Workspaces, users and memberships. */
export function createAccountStore(db: Db): AccountStore {
  const accounts = createSyncAccountStore(db);
  const apiKeys = createSyncApiKeyStore(db);
  const memberTokens = createSyncMemberTokenStore(db);
  const insertWorkspaceWithOwner = db.transaction((workspace: WorkspaceRow, owner: UserRow, now: string) => {
    accounts.insertWorkspace(workspace);
    accounts.insertUser(owner);
    accounts.upsertMembership(workspace.id, owner.id, 'owner', now);
  });
  const removeMember = db.transaction((workspaceId: string, userId: string, now: string): MemberRemoval => {
    const membership = accounts.getMembership(workspaceId, userId);
    if (!membership) return 'not_a_member';
    if (membership.role === 'owner' && accounts.countOwners(workspaceId) <= 1) return 'last_owner';
    accounts.deleteMembership(workspaceId, userId);
    apiKeys.revokeAllBy(workspaceId, userId, now);
    memberTokens.revokeAllOf(workspaceId, userId, now);
    return 'removed';
  });
  return promised({
    ...accounts,
    insertWorkspaceWithOwner: (workspace: WorkspaceRow, owner: UserRow, now: string): void => insertWorkspaceWithOwner(workspace, owner, now),
    // Immediate: the owner count is read under the write lock, so two removals cannot both see two owners.
    removeMember: (workspaceId: string, userId: string, now: string): MemberRemoval => removeMember.immediate(workspaceId, userId, now),
  });
}
