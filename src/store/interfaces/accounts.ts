import type { Role, SubscriptionStatus } from './account-enums.js';
import type { ApiKeyRow } from './api-keys.js';
import type { CreatedPosition } from './list-pages.js';

export type { Role, SubscriptionStatus } from './account-enums.js';

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

/** How changing a member's role ended: changed (with the keys the user created that still worked), or refused (nothing changed). */
export type RoleChange =
  | { outcome: 'changed'; membership: MembershipRow; keys: ApiKeyRow[] }
  | { outcome: 'not_a_member' }
  | { outcome: 'last_owner' };

/** How removing a member ended: removed (with the ids of the keys and tokens it revoked), or refused (nothing changed). */
export type MemberRemoval =
  | { outcome: 'removed'; revokedKeyIds: string[]; revokedTokenIds: string[] }
  | { outcome: 'not_a_member' }
  | { outcome: 'last_owner' };

/** Workspaces, users and memberships. */
export interface AccountStore {
  insertWorkspace(row: WorkspaceRow): Promise<void>;
  getWorkspace(id: string): Promise<WorkspaceRow | undefined>;
  countWorkspaces(): Promise<number>;
  /** Resolves false when no such workspace exists. */
  setSubscription(id: string, status: SubscriptionStatus): Promise<boolean>;
  insertUser(row: UserRow): Promise<void>;
  getUser(id: string): Promise<UserRow | undefined>;
  getUserByEmail(email: string): Promise<UserRow | undefined>;
  upsertMembership(workspaceId: string, userId: string, role: Role, now: string): Promise<void>;
  /** Resolves false when the user was not a member. */
  deleteMembership(workspaceId: string, userId: string): Promise<boolean>;
  getMembership(workspaceId: string, userId: string): Promise<MembershipRow | undefined>;
  listMemberships(workspaceId: string): Promise<MembershipRow[]>;
  /** Up to `limit` members after `position` (joined at, user id), in that order. */
  listMembershipPage(workspaceId: string, limit: number, position?: CreatedPosition): Promise<MembershipRow[]>;
  countOwners(workspaceId: string): Promise<number>;
  /**
   * In one transaction: a new workspace, a new user and that user as its owner (all or nothing).
   */
  insertWorkspaceWithOwner(workspace: WorkspaceRow, owner: UserRow, now: string): Promise<void>;
  /**
   * In one write transaction: refuses when the user is not a member (`not_a_member`) or is the
   * workspace's last owner (`last_owner`); otherwise deletes the membership and revokes every API
   * key the user created in the workspace and every member token they hold there, so re-adding
   * the user later does not revive them; resolves the ids of the keys and tokens it revoked.
   */
  removeMember(workspaceId: string, userId: string, now: string): Promise<MemberRemoval>;
  /**
   * In one write transaction: refuses when the user is not a member (`not_a_member`) or when the
   * change would leave the workspace without an owner (`last_owner`); otherwise sets the role and
   * resolves the keys the user created in the workspace that still worked (neither revoked nor
   * expired at `now`). Those keys keep working, integrations depend on them, unless `revokeKeys`,
   * which revokes them in the same transaction (they are then resolved with their `revoked_at`).
   */
  changeRole(workspaceId: string, userId: string, role: Role, now: string, options: { revokeKeys: boolean }): Promise<RoleChange>;
}
