import type { KeyPrincipalRow } from '../store/interfaces/api-keys.js';
import type { Role } from '../store/interfaces/accounts.js';

/** What authentication established about the caller, kept on `res.locals`. */
export interface ApiKeyCaller {
  kind: 'api_key';
  principal: KeyPrincipalRow;
}

/** A member of a workspace reaching the administration API with a member token. */
export interface MemberCaller {
  kind: 'member';
  token_id: string;
  workspace_id: string;
  user_id: string;
  user_name: string;
  user_email: string;
  role: Role;
}

/** Whoever may reach an administration operation that also accepts API keys (the event catalog). */
export type WorkspaceCaller = MemberCaller | ApiKeyCaller;
