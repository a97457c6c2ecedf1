import type { Db } from './database.js';
import type { AccountStore, MemberRemoval, MembershipRow, Role, RoleChange, SubscriptionStatus, UserRow, WorkspaceRow } from '../interfaces/accounts.js';
import type { CreatedPosition } from '../interfaces/list-pages.js';
import { ACCOUNT_SQL } from '../account-statements.js';
import { API_KEY_SQL } from '../api-key-statements.js';
import { MEMBER_TOKEN_SQL } from '../member-token-statements.js';
import { prepareCreatedOrderList } from './keyset.js';
import { promised } from './promised.js';
import { createSyncApiKeyStore } from './api-keys.js';

/** Workspaces, users and memberships, synchronously: for statements inside one SQLite transaction. */
function createSyncAccountStore(db: Db) {
  const statements = {
    insertWorkspace: db.prepare(ACCOUNT_SQL.insertWorkspace),
    getWorkspace: db.prepare(ACCOUNT_SQL.getWorkspace),
    countWorkspaces: db.prepare(ACCOUNT_SQL.countWorkspaces).pluck(),
    setSubscription: db.prepare(ACCOUNT_SQL.setSubscription),
    insertUser: db.prepare(ACCOUNT_SQL.insertUser),
    getUser: db.prepare(ACCOUNT_SQL.getUser),
    // The column compares under NOCASE (ASCII letters only); PostgreSQL folds with lower().
    getUserByEmail: db.prepare('SELECT id, email, name, created_at FROM users WHERE email = ?'),
    upsertMembership: db.prepare(ACCOUNT_SQL.upsertMembership),
    setRole: db.prepare(ACCOUNT_SQL.setRole),
    deleteMembership: db.prepare(ACCOUNT_SQL.deleteMembership),
    getMembership: db.prepare(ACCOUNT_SQL.getMembership),
    countOwners: db.prepare(ACCOUNT_SQL.countOwners).pluck(),
    listMemberships: db.prepare(ACCOUNT_SQL.listMemberships),
  };

  const listMembershipPage = prepareCreatedOrderList(db, ACCOUNT_SQL.membershipPage);

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
    setRole(workspaceId: string, userId: string, role: Role): void {
      statements.setRole.run(role, workspaceId, userId);
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

/** Workspaces, users and memberships. */
export function createAccountStore(db: Db): AccountStore {
  const accounts = createSyncAccountStore(db);
  const apiKeys = createSyncApiKeyStore(db);
  const insertWorkspaceWithOwner = db.transaction((workspace: WorkspaceRow, owner: UserRow, now: string) => {
    accounts.insertWorkspace(workspace);
    accounts.insertUser(owner);
    accounts.upsertMembership(workspace.id, owner.id, 'owner', now);
  });
  const revokeKeys = db.prepare(API_KEY_SQL.revokeAllByReturningIds).pluck();
  const revokeTokens = db.prepare(MEMBER_TOKEN_SQL.revokeAllOfReturningIds).pluck();
  const removeMember = db.transaction((workspaceId: string, userId: string, now: string): MemberRemoval => {
    const membership = accounts.getMembership(workspaceId, userId);
    if (!membership) return { outcome: 'not_a_member' };
    if (membership.role === 'owner' && accounts.countOwners(workspaceId) <= 1) return { outcome: 'last_owner' };
    accounts.deleteMembership(workspaceId, userId);
    return {
      outcome: 'removed',
      revokedKeyIds: revokeKeys.all(now, workspaceId, userId) as string[],
      revokedTokenIds: revokeTokens.all(now, workspaceId, userId) as string[],
    };
  });
  const changeRole = db.transaction((workspaceId: string, userId: string, role: Role, now: string, options: { revokeKeys: boolean }): RoleChange => {
    const membership = accounts.getMembership(workspaceId, userId);
    if (!membership) return { outcome: 'not_a_member' };
    if (membership.role === 'owner' && role !== 'owner' && accounts.countOwners(workspaceId) <= 1) return { outcome: 'last_owner' };
    accounts.setRole(workspaceId, userId, role);
    const keys = apiKeys.listActiveBy(workspaceId, userId, now);
    if (options.revokeKeys) apiKeys.revokeAllBy(workspaceId, userId, now);
    return { outcome: 'changed', membership: { ...membership, role }, keys: options.revokeKeys ? keys.map((k) => ({ ...k, revoked_at: now })) : keys };
  });
  return promised({
    ...accounts,
    insertWorkspaceWithOwner: (workspace: WorkspaceRow, owner: UserRow, now: string): void => insertWorkspaceWithOwner(workspace, owner, now),
    // Immediate: the owner count is read under the write lock, so two removals cannot both see two owners.
    removeMember: (workspaceId: string, userId: string, now: string): MemberRemoval => removeMember.immediate(workspaceId, userId, now),
    // Immediate for the same reason: two demotions at once cannot both see two owners.
    changeRole: (workspaceId: string, userId: string, role: Role, now: string, options: { revokeKeys: boolean }): RoleChange =>
      changeRole.immediate(workspaceId, userId, role, now, options),
  });
}
