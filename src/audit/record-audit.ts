// Writing the audit log: one call for every writer (the administration API, the owners' console,
// the command line), so each entry has the same shape and none carries a secret.
import type { components } from '../../generated/openapi.js';
import type { Store } from '../store/index.js';
import type { AuditOutcome, AuditRow } from '../store/interfaces/audit-log.js';
import { newAuditEntryId } from './audit-entry-ids.js';

export type AuditAction = components['schemas']['AuditAction'];
export type AuditObjectType = components['schemas']['AuditObjectType'];
export type AuditObject = components['schemas']['AuditObject'];

/** The actor of the operator's command line. */
export const CLI_ACTOR = 'cli';
/** The actor of a refused authentication: nobody could be identified. */
export const ANONYMOUS_ACTOR = 'anonymous';

/** A member's user id, `cli` (the operator's command line) or `anonymous` (nobody authenticated). */
type AuditActorName = string;

/** One entry to record. Never put a secret in it (a key, a token, a webhook secret, a link, a hash of one). */
export interface AuditEntry {
  workspaceId: string;
  actor: AuditActorName;
  action: AuditAction;
  /** What it was done to; null for no single object. */
  object?: AuditObject | null | undefined;
  /** The client's address as the service resolved it (`req.ip`); null or absent for the command line. */
  address?: string | null | undefined;
  /** The request's X-Request-Id; null or absent for the command line. */
  requestId?: string | null | undefined;
  /** `succeeded` when absent. */
  outcome?: AuditOutcome | undefined;
}

/** The row an entry is stored as, at `at`. */
function auditRowOf(entry: AuditEntry, at: Date): AuditRow {
  const actorType = entry.actor === CLI_ACTOR ? 'cli' : entry.actor === ANONYMOUS_ACTOR ? 'anonymous' : 'member';
  return {
    id: newAuditEntryId(at.getTime()),
    workspace_id: entry.workspaceId,
    occurred_at: at.toISOString(),
    actor_type: actorType,
    actor_user_id: actorType === 'member' ? entry.actor.toLowerCase() : null,
    action: entry.action,
    object_type: entry.object?.type ?? null,
    object_id: entry.object?.id ?? null,
    address: entry.address ?? null,
    request_id: entry.requestId ?? null,
    outcome: entry.outcome ?? 'succeeded',
  };
}

/**
 * Records the entries, in this order, all at `at` (now when absent). Called inside
 * `store.atomically(...)` (or an idempotent write's unit of work), they commit with the change
 * they record, or not at all:
 *
 *   await store.atomically(async () => {
 *     await store.sessions.insert(session);
 *     await recordAudit(store, { workspaceId, actor: userId, action: 'console.signed_in', object: { type: 'console_session', id }, address: req.ip, requestId });
 *   });
 */
export async function recordAudit(store: Store, entries: AuditEntry | readonly AuditEntry[], at: Date = new Date()): Promise<void> {
  const list: readonly AuditEntry[] = Array.isArray(entries) ? entries : [entries as AuditEntry];
  await store.auditLog.append(list.map((entry) => auditRowOf(entry, at)));
}
