import type { components } from '../../../generated/openapi.js';
import type { CreatedPosition } from './list-pages.js';

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

/** How removing a member ended: removed, or refused (nothing changed). */
export type MemberRemoval = 'removed' | 'not_a_member' | 'last_owner';

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
   * the user later does not revive them.
   */
  removeMember(workspaceId: string, userId: string, now: string): Promise<MemberRemoval>;
}
