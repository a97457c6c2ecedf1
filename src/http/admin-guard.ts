import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { OpenAPIRouter, type Document } from 'openapi-backend';
import { ApiError } from './api-error.js';
import { Codes } from './codes.js';
import { presentedKey, refuseAuthentication } from './authenticate.js';
import { adminOperationRule, type AdminOperationRule } from './admin-operations.js';
import { callerWorkspaceId, getWorkspaceCaller, setCaller } from './request-context.js';
import { limitPerWorkspace } from './workspace-rate-limit.js';
import type { RateLimiter } from './rate-limit/rate-limiter.js';
import { checkApiKey } from '../keys/api-keys.js';
import { checkMemberToken, MEMBER_TOKEN_PREFIX } from '../keys/member-tokens.js';
import type { Store } from '../store/index.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Bodies of the administration API are small objects; anything larger is refused before parsing. */
const BODY_LIMIT = '100kb';

/** The rule of the administration operation the request addresses; undefined for no known operation. */
function ruleOf(res: Response): AdminOperationRule | undefined {
  return res.locals.adminRule as AdminOperationRule | undefined;
}

/**
 * Finds the operation before anything else, because which credentials are accepted and which role
 * is needed depend on it. An unknown route or method goes through unmatched and ends as the
 * validator's 404/405 once the caller is authenticated.
 */
function matchOperation(document: object): RequestHandler {
  const router = new OpenAPIRouter({ definition: structuredClone(document) as Document, apiRoot: '/' });
  return (req, res, next) => {
    const operation = router.matchOperation({ method: req.method, path: req.baseUrl + req.path, headers: {}, query: {} });
    res.locals.adminRule = operation?.operationId ? adminOperationRule(operation.operationId) : undefined;
    next();
  };
}

/** 401 unless the request carries a member token of a current member, or an API key where the operation takes one. */
function authenticate(deps: AdminGuardDeps): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    const credential = presentedKey(req);
    const now = deps.now();
    const refuse = (code: typeof Codes.KEY_MISSING | typeof Codes.KEY_INVALID, message: string): void => {
      next(refuseAuthentication(req, deps.clientLimiter, now, new ApiError(401, code, message)));
    };
    if (credential === undefined) {
      refuse(Codes.KEY_MISSING, 'No credential: send `Authorization: Bearer <member token>` (`wsm_live_…`).');
      return;
    }
    if (credential.startsWith(MEMBER_TOKEN_PREFIX)) {
      const check = checkMemberToken(deps.store, credential);
      if (!check.ok) {
        refuse(Codes.KEY_INVALID, 'The member token is invalid or revoked, or its user is no longer a member of the workspace.');
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
    if (!ruleOf(res)?.apiKey) {
      refuse(Codes.KEY_INVALID, 'The administration API takes a member token (`Authorization: Bearer wsm_live_…`); API keys reach only the event catalog.');
      return;
    }
    const check = checkApiKey(deps.store, credential, now);
    if (!check.ok) {
      refuse(Codes.KEY_INVALID, 'The API key is invalid, revoked or expired.');
      return;
    }
    setCaller(res, { kind: 'api_key', principal: check.principal });
    deps.recordKeyUse(check.principal.key_id, now);
    next();
  };
}

/**
 * The workspace in the path must be the caller's: another workspace's id answers exactly like an
 * unknown one, so ids of other workspaces cannot be probed.
 */
function requireOwnWorkspace(): RequestHandler {
  return (req, res, next) => {
    const raw: unknown = req.params.workspace_id;
    const id = typeof raw === 'string' ? raw : '';
    if (!UUID.test(id)) {
      next(ApiError.invalid({ in: 'path', name: 'workspace_id', message: 'must match format "uuid"' }));
      return;
    }
    if (id.toLowerCase() !== callerWorkspaceId(res)) {
      next(ApiError.notFound('Workspace'));
      return;
    }
    next();
  };
}

/** 403 (4030) when the operation needs a higher role than the caller's. */
function requireRole(): RequestHandler {
  return (_req, res, next) => {
    const rule = ruleOf(res);
    const caller = getWorkspaceCaller(res);
    if (rule?.role === 'owner' && caller.kind === 'member' && caller.role !== 'owner') {
      next(new ApiError(403, Codes.ROLE_FORBIDDEN, `Only owners of the workspace can do this; your role is ${caller.role}.`));
      return;
    }
    next();
  };
}

export interface AdminGuardDeps {
  document: object;
  store: Store;
  limiter: RateLimiter;
  clientLimiter: RateLimiter;
  now: () => Date;
  recordKeyUse: (keyId: string, now: Date) => void;
}

/**
 * Everything before validation for `/api/workspace/:workspace_id`, in the documented order:
 * 401 (credential) → 429 (the workspace's shared rate limit) → 404 (another workspace) →
 * 403 (role) → body parsing; the contract validator (422) and the handler follow.
 */
export function adminGuard(deps: AdminGuardDeps): RequestHandler[] {
  return [
    matchOperation(deps.document),
    authenticate(deps),
    limitPerWorkspace({ limiter: deps.limiter, now: deps.now }),
    requireOwnWorkspace(),
    requireRole(),
    express.json({ limit: BODY_LIMIT }),
  ];
}
