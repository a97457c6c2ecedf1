import type { Request, Response } from 'express';
import { ANONYMOUS_ACTOR, recordAudit, type AuditEntry } from '../audit/record-audit.js';
import type { Store } from '../store/index.js';
import { getWorkspaceCaller } from './request-context.js';

/**
 * Where a request came from, as the audit log records it: the client's address as Express resolves
 * it (the socket's peer, or what a proxy TRUST_PROXY names forwarded) and the request id the
 * response carries in `X-Request-Id`.
 */
export function auditSourceOf(req: Request, res: Response): { address: string | null; requestId: string | null } {
  const requestId = res.getHeader('X-Request-Id');
  return { address: req.ip ?? req.socket?.remoteAddress ?? null, requestId: typeof requestId === 'string' ? requestId : null };
}

/** Who made an authenticated administration request: the member, or nobody known (an API key on the event catalog). */
export function auditActorOf(res: Response): string {
  const caller = getWorkspaceCaller(res);
  return caller.kind === 'member' ? caller.user_id : ANONYMOUS_ACTOR;
}

/** Records a refused attempt on its own (there is no change for it to share a transaction with). */
export async function recordRefusal(store: Store, req: Request, res: Response, entry: Omit<AuditEntry, 'address' | 'requestId'>, at: Date): Promise<void> {
  await recordAudit(store, { ...entry, ...auditSourceOf(req, res) }, at);
}
