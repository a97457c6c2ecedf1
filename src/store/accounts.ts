import type { components } from '../../generated/openapi.js';
import type { Db } from './database.js';
import { prepareCreatedOrderList, type CreatedPosition } from './keyset.js';

export type SubscriptionStatus = components['schemas']['SubscriptionStatus'];
export type Role = components['schemas']['MemberRole'];

export interface WorkspaceRow {
  id: string;
  name: string;
  subscription_status: SubscriptionStatus;
  created_at: string;
}

export interface UserRow {
  id: string;
  email: string;
  name: string;
  created_at: string;
}

export interface MembershipRow {
  workspace_id: string;
  user_id: string;
  role: Role;
  created_at: string;
  user_name: string;
  user_email: string;
}

/** Workspaces, users and memberships. */
export function createAccountStore(db: Db) {
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

export type AccountStore = ReturnType<typeof createAccountStore>;
