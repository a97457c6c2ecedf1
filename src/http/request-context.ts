import type { Response } from 'express';
import type { ApiKeyCaller, MemberCaller, WorkspaceCaller } from '../keys/callers.js';
import type { OperationMatch, RouteMatch } from '@workspace-read-api/contract/operation-matcher.js';

export function setCaller(res: Response, caller: ApiKeyCaller | MemberCaller): void {
  res.locals.caller = caller;
}

/** The caller of an administration request, whichever credential it used. */
export function getWorkspaceCaller(res: Response): WorkspaceCaller {
  const caller = res.locals.caller as WorkspaceCaller | undefined;
  if (caller?.kind !== 'api_key' && caller?.kind !== 'member') throw new Error('no authenticated caller on this request');
  return caller;
}

/** The workspace the authenticated caller belongs to, whichever credential it used. */
export function callerWorkspaceId(res: Response): string {
  const caller = getWorkspaceCaller(res);
  return caller.kind === 'member' ? caller.workspace_id : caller.principal.workspace_id;
}

export function getApiKeyCaller(res: Response): ApiKeyCaller {
  const caller = res.locals.caller as ApiKeyCaller | undefined;
  if (caller?.kind !== 'api_key') throw new Error('no authenticated API key on this request');
  return caller;
}

/** Kept by the one route match each request gets (src/http/route-match.ts). */
export function setRouteMatch(res: Response, match: RouteMatch): void {
  res.locals.route = match;
}

/** What the matcher found for this request; every step after it reads this instead of matching again. */
export function getRouteMatch(res: Response): RouteMatch {
  const match = res.locals.route as RouteMatch | undefined;
  if (match === undefined) throw new Error('the request was not matched against the contract');
  return match;
}

/** The operation the request addresses; undefined for no operation of the contract. */
export function matchedOperation(res: Response): OperationMatch | undefined {
  const match = getRouteMatch(res);
  return match.kind === 'operation' ? match : undefined;
}
