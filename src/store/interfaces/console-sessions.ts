import type { Role } from './accounts.js';

/** A one-time sign-in link to the console, as stored: its secret only as a hash. */
export interface SignInLinkRow {
  id: string;
  workspace_id: string;
  user_id: string;
  link_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A console session, as stored: its secret (the cookie's value) only as a hash. */
export interface ConsoleSessionRow {
  id: string;
  workspace_id: string;
  user_id: string;
  /** The member token it was started with; null when it began with a sign-in link. */
  token_id: string | null;
  /** The sign-in link it was started with; null when it began with a token. */
  link_id: string | null;
  /** The member's role at sign-in: another role now ends the session. */
  role: Role;
  session_hash: string;
  created_at: string;
  last_seen_at: string;
  ended_at: string | null;
}

/** A session with what every console request checks, in one indexed look-up. */
export interface ConsoleSessionPrincipalRow {
  session_id: string;
  workspace_id: string;
  workspace_name: string;
  user_id: string;
  user_name: string;
  user_email: string;
  token_id: string | null;
  /** The token's revocation; null when the token is active or the session began with a link. */
  token_revoked_at: string | null;
  /** The role at sign-in. */
  signed_in_role: Role;
  /** The role now; null when the user is no longer a member. */
  member_role: Role | null;
  created_at: string;
  last_seen_at: string;
  ended_at: string | null;
}

export interface ConsoleSessionStore {
  insertLink(row: SignInLinkRow): Promise<void>;
  /**
   * Spends a link: resolves its row when it exists, was never used and has not expired at `now`,
   * marking it used in the same statement, so two concurrent sign-ins cannot both spend it.
   */
  spendLink(hash: string, now: string): Promise<SignInLinkRow | undefined>;
  /** A link by its hash, spent or not (the workspace a refused link named, for its audit log). */
  linkByHash(hash: string): Promise<SignInLinkRow | undefined>;
  insertSession(row: ConsoleSessionRow): Promise<void>;
  principalByHash(hash: string): Promise<ConsoleSessionPrincipalRow | undefined>;
  /** Records activity on a session still open; resolves false when it has ended. */
  touch(id: string, now: string): Promise<boolean>;
  /** Ends a session; resolves false when it had already ended. */
  end(id: string, now: string): Promise<boolean>;
}
