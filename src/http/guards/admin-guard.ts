import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ServiceError } from '../../errors/service-error.js';
import { presentedKey, refuseAuthentication } from './authenticate.js';
import { callerWorkspaceId, getWorkspaceCaller, matchedOperation, setCaller } from '../request-context.js';
import { limitPerWorkspace } from './workspace-rate-limit.js';
import { parseJsonBody } from '../validation/json-body.js';
import { requireOperation } from '../route-match.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';
import { checkApiKey } from '../../keys/api-keys.js';
import { checkMemberToken, MEMBER_TOKEN_PREFIX } from '../../keys/member-tokens.js';
import type { Store } from '../../store/index.js';
import { checkConsoleSession, CONSOLE_SESSION_PREFIX, type ConsoleSessionTimeouts } from '../../keys/console-sessions.js';
import { isInProcessRequest } from '../in-process-request.js';
import { recordRefusal } from '../audit-source.js';
import { ANONYMOUS_ACTOR } from '../../audit/record-audit.js';
import { auditObjectOf, auditOf } from '../operation-audit.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Bodies of the administration API are small objects; anything larger is refused before parsing. */
const BODY_LIMIT = '100kb';

/** 401 unless the request carries a member token of a current member, or an API key where the operation takes one. */
function authenticate(deps: AdminGuardDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const credential = presentedKey(req);
    const now = deps.now();
    const refuse = async (error: 'KEY_MISSING' | 'KEY_INVALID', message: string): Promise<void> => {
      const refusal = await refuseAuthentication(req, deps.clientLimiter, now, new ServiceError(error, message));
      // A credential that fails, on a path naming a workspace, is the workspace's to know about
      // (a request without any credential is no attempt); one throttled by the client limit is not
      // recorded, so a guesser cannot fill the log faster than that limit lets them try.
      const workspaceId = workspaceInPath(req, res);
      if (error === 'KEY_INVALID' && workspaceId !== undefined && refusal.error !== 'RATE_LIMITED') {
        await recordRefusal(deps.store, req, res, { workspaceId, actor: ANONYMOUS_ACTOR, action: 'authentication.failed', outcome: 'failed' }, now);
      }
      next(refusal);
    };
    if (credential === undefined) {
      await refuse('KEY_MISSING', 'No credential: send `Authorization: Bearer <member token>` (`wsm_live_…`).');
      return;
    }
    // A console session is a credential only on the console's own requests (src/console/), made in
    // process: its cookie presented as a bearer token from outside is refused like any bad token.
    if (credential.startsWith(CONSOLE_SESSION_PREFIX) && isInProcessRequest(req)) {
      const check = await checkConsoleSession(deps.store, credential, now, deps.consoleTimeouts);
      if (!check.ok) {
        next(new ServiceError('KEY_INVALID', `The console session has ended: ${check.reason}`));
        return;
      }
      const { workspace_name: _name, ...member } = check.member;
      setCaller(res, { kind: 'member', ...member });
      next();
      return;
    }
    if (credential.startsWith(MEMBER_TOKEN_PREFIX)) {
      const check = await checkMemberToken(deps.store, credential);
      if (!check.ok) {
        await refuse('KEY_INVALID', 'The member token is invalid or revoked, or its user is no longer a member of the workspace.');
        return;
      }
      const p = check.principal;
      setCaller(res, {
        kind: 'member',
        token_id: p.token_id,
        workspace_id: p.workspace_id,
        user_id: p.user_id,
        user_name: p.user_name,
        user_email: p.user_email,
        role: p.member_role,
      });
      next();
      return;
    }
    if (!matchedOperation(res)?.operation.requirement.credentials.includes('api_key')) {
      await refuse('KEY_INVALID', 'The administration API takes a member token (`Authorization: Bearer wsm_live_…`); API keys reach only the event catalog.');
      return;
    }
    const check = await checkApiKey(deps.store, credential, now);
    if (!check.ok) {
      await refuse('KEY_INVALID', 'The API key is invalid, revoked or expired.');
      return;
    }
    setCaller(res, { kind: 'api_key', principal: check.principal });
    deps.recordKeyUse(check.principal.key_id, now);
    next();
  };
}

/**
 * The workspace in the path must be the caller's: another workspace's id answers exactly like an
 * unknown one, so ids of other workspaces cannot be probed. A request that names no operation goes
 * on to its 404.
 */
function requireOwnWorkspace(): RequestHandler {
  return (_req, res, next) => {
    const match = matchedOperation(res);
    if (!match) {
      next();
      return;
    }
    const id = match.params.workspace_id ?? '';
    if (!UUID.test(id)) {
      next(ServiceError.invalid({ in: 'path', name: 'workspace_id', message: 'must match format "uuid"' }));
      return;
    }
    if (id.toLowerCase() !== callerWorkspaceId(res)) {
      next(ServiceError.notFound('Workspace'));
      return;
    }
    next();
  };
}

/**
 * 403 (4030) when the operation's `security` names roles and the member has none of them; the
 * attempt is recorded in the audit log, with the action and object the request named.
 */
function requireRole(deps: AdminGuardDeps): RequestHandler {
  return async (req, res, next) => {
    const match = matchedOperation(res);
    const roles = match?.operation.requirement.roles ?? [];
    const caller = getWorkspaceCaller(res);
    if (match && caller.kind === 'member' && roles.length > 0 && !roles.includes(caller.role)) {
      const audit = auditOf(match.operation);
      if (audit !== null) {
        await recordRefusal(deps.store, req, res, {
          workspaceId: caller.workspace_id,
          actor: caller.user_id,
          action: audit.action,
          object: auditObjectOf(audit, match.params),
          outcome: 'forbidden',
        }, deps.now());
      }
      const who = roles.map((role) => `${role}s`).join(' or ');
      next(new ServiceError('ROLE_FORBIDDEN', `Only ${who} of the workspace can do this; your role is ${caller.role}.`));
      return;
    }
    next();
  };
}

const WORKSPACE_IN_PATH = /^\/api\/workspace\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?:\/|$)/i;

/** The workspace id the path names, when it names one: the matched operation's, else the path's first segment after `/api/workspace`. */
function workspaceInPath(req: Request, res: Response): string | undefined {
  const fromMatch = matchedOperation(res)?.params.workspace_id;
  if (fromMatch !== undefined) return UUID.test(fromMatch) ? fromMatch.toLowerCase() : undefined;
  return WORKSPACE_IN_PATH.exec(req.originalUrl.split('?')[0] ?? '')?.[1]?.toLowerCase();
}

export interface AdminGuardDeps {
  store: Store;
  limiter: RateLimiter;
  clientLimiter: RateLimiter;
  now: () => Date;
  recordKeyUse: (keyId: string, now: Date) => void;
  /** When a console session has ended (the console's requests carry one). */
  consoleTimeouts: ConsoleSessionTimeouts;
}

/** The workspace's shared limit, except for the console's own requests, which never spend the read API's budget. */
function limitPerWorkspaceOutsideConsole(deps: AdminGuardDeps): RequestHandler {
  const limit = limitPerWorkspace({ limiter: deps.limiter, now: deps.now });
  return (req, res, next) => (isInProcessRequest(req) ? next() : limit(req, res, next));
}

/**
 * Everything before validation for `/api/workspace`, in the documented order, for the operation
 * the request was matched to (src/http/route-match.ts): 401 (credential) → 429 (the workspace's
 * shared rate limit) → 404 (another workspace) → 403 (role) → 404/405 (no such path or method) →
 * body parsing; the contract validator (422) and the handler follow.
 */
export function adminGuard(deps: AdminGuardDeps): RequestHandler[] {
  return [
    authenticate(deps),
    limitPerWorkspaceOutsideConsole(deps),
    requireOwnWorkspace(),
    requireRole(deps),
    // Before the body is read: a malformed body on a path no operation has is still a 404.
    requireOperation(),
    parseJsonBody({ limit: BODY_LIMIT }),
  ];
}
