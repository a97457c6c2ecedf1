import type { Role, SubscriptionStatus } from './account-enums.js';
import type { CreatedPosition } from './list-pages.js';

export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  created_by: string;
  name: string;
  prefix: string;
  key_hash: string;
  scopes: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** Everything a request needs to know about its key, read in one indexed lookup. */
export interface KeyPrincipalRow {
  key_id: string;
  key_name: string;
  key_prefix: string;
  scopes: string;
  key_created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  workspace_id: string;
  workspace_name: string;
  workspace_created_at: string;
  subscription_status: SubscriptionStatus;
  user_id: string;
  user_name: string;
  user_email: string;
  /** null when the key's creator is no longer a member of the workspace. */
  member_role: Role | null;
}

/** One use of a key to record: when it was used, unless a use later than `notBefore` is already recorded. */
export interface KeyUse {
  keyId: string;
  at: string;
  notBefore: string;
}

/** What an owner may change on a key: its name, and its scopes as stored (`scopes` of ApiKeyRow). */
export interface ApiKeyChange {
  name?: string | undefined;
  scopes?: string | undefined;
  /** The stored scopes the change was checked against: the update writes nothing when they changed since. */
  scopesWere?: string | undefined;
}

export interface ApiKeyStore {
  /**
   * Inserts the key unless the workspace already holds `maxActive` keys that work at its
   * `created_at` (neither revoked nor expired); resolves false, having written nothing, when it
   * does. The count and the insert are one transaction, serialised per workspace, so keys created
   * at the same instant never pass the cap together.
   */
  insertUnderCap(row: ApiKeyRow, maxActive: number): Promise<boolean>;
  principalByHash(hash: string): Promise<KeyPrincipalRow | undefined>;
  get(id: string): Promise<ApiKeyRow | undefined>;
  listByWorkspace(workspaceId: string): Promise<ApiKeyRow[]>;
  /** Up to `limit` keys of the workspace after `position`, in (created_at, id) order. */
  listPage(workspaceId: string, limit: number, position?: CreatedPosition): Promise<ApiKeyRow[]>;
  /** Revokes every key a user created in the workspace (they left it); resolves how many. */
  revokeAllBy(workspaceId: string, userId: string, now: string): Promise<number>;
  /** Resolves false when the key does not exist or was already revoked. */
  revoke(id: string, now: string): Promise<boolean>;
  /**
   * Sets the name and/or the stored scopes given, in one statement; resolves false, writing
   * nothing, when the key does not exist, is revoked, or no longer holds `scopesWere`.
   */
  update(id: string, change: ApiKeyChange): Promise<boolean>;
  /** Records use unless a use later than `notBefore` is already recorded (the in-memory check agrees at the boundary). */
  touch(id: string, now: string, notBefore: string): Promise<void>;
  /**
   * Records a batch of uses (each as `touch` does) in one transaction, for a writer in the
   * background: it never waits for a lock another writer holds, and rejects with
   * DatabaseBusyError (`../errors.ts`) at once instead, having written nothing.
   */
  recordUses(uses: readonly KeyUse[]): Promise<void>;
}
