import { randomUUID } from 'node:crypto';
import type { Store } from '../store/index.js';
import type { MemberPrincipalRow } from '../store/interfaces/member-tokens.js';
import { createSecretToken, displayPrefix, hashToken, isWellFormedToken } from './secret-token.js';
import { KeyRefusal } from './api-keys.js';

/** Member access tokens: same format and hashing as API keys, their own prefix. */
export const MEMBER_TOKEN_PREFIX = 'wsm_live_';

export interface CreatedMemberToken {
  id: string;
  token: string;
  prefix: string;
  name: string;
  workspace_id: string;
  user_id: string;
  created_at: string;
}

/** Creates a token for a member of the workspace (any role). The secret is returned once, never stored. */
export async function createMemberToken(
  store: Store,
  input: { workspaceId: string; userId: string; name?: string },
  now: Date = new Date(),
): Promise<CreatedMemberToken> {
  if (!(await store.accounts.getWorkspace(input.workspaceId))) throw new KeyRefusal(`workspace ${input.workspaceId} does not exist`);
  if (!(await store.accounts.getUser(input.userId))) throw new KeyRefusal(`user ${input.userId} does not exist`);
  if (!(await store.accounts.getMembership(input.workspaceId, input.userId))) {
    throw new KeyRefusal(`user ${input.userId} is not a member of workspace ${input.workspaceId}`);
  }
  const name = (input.name ?? 'Administration token').trim();
  if (name === '') throw new KeyRefusal('the token needs a name');
  const token = createSecretToken(MEMBER_TOKEN_PREFIX);
  const row = {
    id: randomUUID(),
    workspace_id: input.workspaceId,
    user_id: input.userId,
    name,
    prefix: displayPrefix(MEMBER_TOKEN_PREFIX, token),
    token_hash: hashToken(token),
    created_at: now.toISOString(),
    revoked_at: null,
  };
  await store.memberTokens.insert(row);
  return {
    id: row.id,
    token,
    prefix: row.prefix,
    name: row.name,
    workspace_id: row.workspace_id,
    user_id: row.user_id,
    created_at: row.created_at,
  };
}

export type MemberTokenCheck =
  | { ok: true; principal: MemberPrincipalRow & { member_role: NonNullable<MemberPrincipalRow['member_role']> } }
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' | 'orphaned' };

/**
 * Resolves a presented member token. No cache: a revocation or a removed member takes effect on
 * the next request; the role is read fresh each time, so a demotion applies at once too.
 */
export async function checkMemberToken(store: Store, presented: string): Promise<MemberTokenCheck> {
  if (!isWellFormedToken(MEMBER_TOKEN_PREFIX, presented)) return { ok: false, reason: 'malformed' };
  const principal = await store.memberTokens.principalByHash(hashToken(presented));
  if (!principal) return { ok: false, reason: 'unknown' };
  if (principal.revoked_at !== null) return { ok: false, reason: 'revoked' };
  const role = principal.member_role;
  if (role === null) return { ok: false, reason: 'orphaned' };
  return { ok: true, principal: { ...principal, member_role: role } };
}
