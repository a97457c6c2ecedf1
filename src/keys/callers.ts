import type { KeyPrincipalRow } from '../store/interfaces/api-keys.js';
import type { Role } from '../store/interfaces/accounts.js';

/** What authentication established about the caller, kept on `res.locals`. */
export interface ApiKeyCaller {
  kind: 'api_key';
  principal: KeyPrincipalRow;
}

/**
 * A member of a workspace reaching the administration API with a member token, or through the
 * console with a session (src/console/): then `session_id` names it, and `token_id` is the token
 * the session began with (null when it began with a sign-in link).
 */
export interface MemberCaller {
  kind: 'member';
  token_id: string | null;
  session_id?: string;
  workspace_id: string;
  user_id: string;
  user_name: string;
  user_email: string;
  role: Role;
}

/** Whoever may reach an administration operation that also accepts API keys (the event catalog). */
export type WorkspaceCaller = MemberCaller | ApiKeyCaller;
