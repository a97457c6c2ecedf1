import { randomUUID } from 'node:crypto';
import type { ConsoleConfig } from '../config.js';
import type { Store } from '../store/index.js';
import type { Role } from '../store/interfaces/accounts.js';
import type { ConsoleSessionPrincipalRow } from '../store/interfaces/console-sessions.js';
import { createSecretToken, hashToken, isWellFormedToken } from './secret-token.js';
import { KeyRefusal } from './api-keys.js';
import { checkMemberToken } from './member-tokens.js';
import { ANONYMOUS_ACTOR, CLI_ACTOR, recordAudit } from '../audit/record-audit.js';

/** One-time sign-in links to the console (`workspace-api console link`): their own prefix, so logs redact them. */
export const SIGN_IN_LINK_PREFIX = 'wsl_live_';
/** The value of a console session's cookie, and the credential the console's own requests carry. */
export const CONSOLE_SESSION_PREFIX = 'wss_live_';

/** A sign-in link works this long after it is printed. */
const SIGN_IN_LINK_LIFETIME_MS = 10 * 60_000;
/** A session's activity is written at most this often: the idle timeout is kept to this precision. */
const TOUCH_INTERVAL_MS = 60_000;

/** When a session has ended: idle for `idleMs`, or `absoluteMs` after it began (src/config.ts). */
export type ConsoleSessionTimeouts = ConsoleConfig;

export interface CreatedSignInLink {
  id: string;
  /** The link's secret: shown once, in the address the operator hands on. */
  token: string;
  workspace_id: string;
  user_id: string;
  expires_at: string;
}

/** A link for a member of the workspace (any role); only its hash is stored. */
export async function createSignInLink(
  store: Store,
  input: { workspaceId: string; userId: string },
  now: Date = new Date(),
): Promise<CreatedSignInLink> {
  if (!(await store.accounts.getMembership(input.workspaceId, input.userId))) {
    throw new KeyRefusal(`user ${input.userId} is not a member of workspace ${input.workspaceId}`);
  }
  const token = createSecretToken(SIGN_IN_LINK_PREFIX);
  const row = {
    id: randomUUID(),
    workspace_id: input.workspaceId,
    user_id: input.userId,
    link_hash: hashToken(token),
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SIGN_IN_LINK_LIFETIME_MS).toISOString(),
    used_at: null,
  };
  await store.atomically(async () => {
    await store.consoleSessions.insertLink(row);
    await recordAudit(store, { workspaceId: row.workspace_id, actor: CLI_ACTOR, action: 'console_link.created', object: { type: 'console_link', id: row.id } }, now);
  });
  return { id: row.id, token, workspace_id: row.workspace_id, user_id: row.user_id, expires_at: row.expires_at };
}

/** Who signed in: the member, in their workspace, with their role. */
export interface ConsoleMember {
  session_id: string;
  workspace_id: string;
  workspace_name: string;
  user_id: string;
  user_name: string;
  user_email: string;
  role: Role;
  token_id: string | null;
}

interface StartedSession {
  /** The cookie's value: shown to the browser once, stored only as a hash. */
  secret: string;
  member: ConsoleMember;
  /** How the member signed in, for the audit log. */
  method: 'token' | 'link';
}

export type SignInOutcome = { ok: true; session: StartedSession } | { ok: false; reason: string };

/** Where a sign-in or sign-out came from, for the audit log. */
export interface RequestOrigin {
  address: string | undefined;
  requestId: string | undefined;
}

/** A refused sign-in, in the audit log of the workspace it named (when one can be told: an unknown token names none). */
async function recordRefusal(store: Store, workspaceId: string | undefined, origin: RequestOrigin, now: Date): Promise<void> {
  if (workspaceId === undefined) return;
  await recordAudit(store, {
    workspaceId, actor: ANONYMOUS_ACTOR, action: 'console.signed_in', outcome: 'failed', address: origin.address, requestId: origin.requestId,
  }, now);
}

async function startSession(
  store: Store,
  who: Omit<ConsoleMember, 'session_id'> & { link_id: string | null },
  method: StartedSession['method'],
  origin: RequestOrigin,
  now: Date,
): Promise<StartedSession> {
  const secret = createSecretToken(CONSOLE_SESSION_PREFIX);
  const at = now.toISOString();
  const id = randomUUID();
  await store.consoleSessions.insertSession({
    id,
    workspace_id: who.workspace_id,
    user_id: who.user_id,
    token_id: who.token_id,
    link_id: who.link_id,
    role: who.role,
    session_hash: hashToken(secret),
    created_at: at,
    last_seen_at: at,
    ended_at: null,
  });
  await recordAudit(store, {
    workspaceId: who.workspace_id, actor: who.user_id, action: 'console.signed_in', object: { type: 'console_session', id },
    address: origin.address, requestId: origin.requestId,
  }, now);
  const { link_id: _link, ...member } = who;
  return { secret, member: { ...member, session_id: id }, method };
}

/** A session for the member a member token names, while the token is active and its user a member. */
export async function signInWithToken(store: Store, token: string, origin: RequestOrigin, now: Date): Promise<SignInOutcome> {
  const check = await checkMemberToken(store, token);
  if (!check.ok) {
    // A revoked or orphaned token still names its workspace: the refusal goes into its audit log.
    const named = check.reason === 'revoked' || check.reason === 'orphaned' ? await store.memberTokens.principalByHash(hashToken(token)) : undefined;
    await recordRefusal(store, named?.workspace_id, origin, now);
    return { ok: false, reason: 'The member token is invalid or revoked, or its user is no longer a member of the workspace.' };
  }
  const p = check.principal;
  return {
    ok: true,
    session: await store.atomically(() => startSession(store, {
      workspace_id: p.workspace_id, workspace_name: p.workspace_name, user_id: p.user_id, user_name: p.user_name,
      user_email: p.user_email, role: p.member_role, token_id: p.token_id, link_id: null,
    }, 'token', origin, now)),
  };
}

/** A session for the member a sign-in link names: the link is spent, whatever follows. */
export async function signInWithLink(store: Store, linkToken: string, origin: RequestOrigin, now: Date): Promise<SignInOutcome> {
  const refused = { ok: false as const, reason: 'This sign-in link is not valid: it was already used, it expired (links last 10 minutes), or it was never issued. Ask for another.' };
  if (!isWellFormedToken(SIGN_IN_LINK_PREFIX, linkToken)) return refused;
  const hash = hashToken(linkToken);
  // The link is spent, the session started and both audited in one transaction: all or nothing.
  const outcome = await store.atomically(async (): Promise<SignInOutcome> => {
    const link = await store.consoleSessions.spendLink(hash, now.toISOString());
    if (!link) return refused;
    const [membership, user, workspace] = await Promise.all([
      store.accounts.getMembership(link.workspace_id, link.user_id),
      store.accounts.getUser(link.user_id),
      store.accounts.getWorkspace(link.workspace_id),
    ]);
    if (!membership || !user || !workspace) {
      await recordRefusal(store, link.workspace_id, origin, now);
      return { ok: false, reason: 'The user this link was made for is no longer a member of the workspace.' };
    }
    return {
      ok: true,
      session: await startSession(store, {
        workspace_id: workspace.id, workspace_name: workspace.name, user_id: user.id, user_name: user.name,
        user_email: user.email, role: membership.role, token_id: null, link_id: link.id,
      }, 'link', origin, now),
    };
  });
  if (!outcome.ok && outcome === refused) await recordRefusal(store, (await store.consoleSessions.linkByHash(hash))?.workspace_id, origin, now);
  return outcome;
}

export type SessionCheck = { ok: true; member: ConsoleMember } | { ok: false; reason: string };

/** Why a stored session no longer stands, or undefined when it does. */
function endedBecause(p: ConsoleSessionPrincipalRow, now: Date, timeouts: ConsoleSessionTimeouts): string | undefined {
  if (p.ended_at !== null) return 'You signed out, or the session ended.';
  if (now.getTime() - Date.parse(p.created_at) >= timeouts.absoluteMs) return 'The session reached its time limit; sign in again.';
  if (now.getTime() - Date.parse(p.last_seen_at) >= timeouts.idleMs) return 'The session ended after a time without activity; sign in again.';
  // Membership first: removing a member also revokes their tokens, and the removal is the news.
  if (p.member_role === null) return 'You are no longer a member of this workspace.';
  if (p.member_role !== p.signed_in_role) return `Your role changed to ${p.member_role}; sign in again.`;
  if (p.token_revoked_at !== null) return 'The member token this session was started with has been revoked.';
  return undefined;
}

/**
 * Resolves the session a cookie names, on every request: no cache, so a revoked token, a removed
 * member or another role ends it at once (and it is marked ended in the store).
 */
export async function checkConsoleSession(store: Store, secret: string, now: Date, timeouts: ConsoleSessionTimeouts): Promise<SessionCheck> {
  if (!isWellFormedToken(CONSOLE_SESSION_PREFIX, secret)) return { ok: false, reason: 'No session.' };
  const p = await store.consoleSessions.principalByHash(hashToken(secret));
  if (!p) return { ok: false, reason: 'No session.' };
  const ended = endedBecause(p, now, timeouts);
  if (ended !== undefined) {
    if (p.ended_at === null) await store.consoleSessions.end(p.session_id, now.toISOString());
    return { ok: false, reason: ended };
  }
  if (now.getTime() - Date.parse(p.last_seen_at) >= TOUCH_INTERVAL_MS) await store.consoleSessions.touch(p.session_id, now.toISOString());
  return {
    ok: true,
    member: {
      session_id: p.session_id, workspace_id: p.workspace_id, workspace_name: p.workspace_name, user_id: p.user_id,
      user_name: p.user_name, user_email: p.user_email, role: p.signed_in_role, token_id: p.token_id,
    },
  };
}

/** Ends a session (sign-out), audited in the same transaction; resolves false when it had already ended. */
export async function endConsoleSession(store: Store, member: ConsoleMember, origin: RequestOrigin, now: Date): Promise<boolean> {
  return store.atomically(async () => {
    const ended = await store.consoleSessions.end(member.session_id, now.toISOString());
    if (ended) {
      await recordAudit(store, {
        workspaceId: member.workspace_id, actor: member.user_id, action: 'console.signed_out', object: { type: 'console_session', id: member.session_id },
        address: origin.address, requestId: origin.requestId,
      }, now);
    }
    return ended;
  });
}
