import type { Role } from './accounts.js';

export interface MemberTokenRow {
  id: string;
  workspace_id: string;
  user_id: string;
  name: string;
  prefix: string;
  token_hash: string;
  created_at: string;
  revoked_at: string | null;
}

/** Everything an administration request needs to know about its token, in one indexed lookup. */
export interface MemberPrincipalRow {
  token_id: string;
  revoked_at: string | null;
  workspace_id: string;
  workspace_name: string;
  user_id: string;
  user_name: string;
  user_email: string;
  /** null when the token's user is no longer a member of the workspace. */
  member_role: Role | null;
}

export interface MemberTokenStore {
  insert(row: MemberTokenRow): Promise<void>;
  principalByHash(hash: string): Promise<MemberPrincipalRow | undefined>;
  get(id: string): Promise<MemberTokenRow | undefined>;
  listByWorkspace(workspaceId: string): Promise<MemberTokenRow[]>;
  /** Resolves false when the token does not exist or was already revoked. */
  revoke(id: string, now: string): Promise<boolean>;
  /** Revokes every token of a user in the workspace (they left it); resolves how many. */
  revokeAllOf(workspaceId: string, userId: string, now: string): Promise<number>;
}
