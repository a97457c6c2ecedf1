// Reading the audit log, as the administration API and the command line show it.
import type { components } from '../../generated/openapi.js';
import { ServiceError } from '../errors/service-error.js';
import type { AuditLogFilters, AuditRow } from '../store/interfaces/audit-log.js';
import { instantOf } from '../store/timestamp.js';
import { ANONYMOUS_ACTOR, CLI_ACTOR, type AuditObjectType } from './record-audit.js';

export type AuditLogEntry = components['schemas']['AuditLogEntry'];

export function toAuditEntryView(row: AuditRow): AuditLogEntry {
  return {
    id: row.id,
    occurred_at: row.occurred_at,
    actor: { type: row.actor_type, user_id: row.actor_user_id },
    action: row.action as AuditLogEntry['action'],
    object: row.object_type === null ? null : { type: row.object_type as AuditObjectType, id: row.object_id },
    address: row.address,
    request_id: row.request_id,
    outcome: row.outcome,
  };
}

/** The filters of a read of the log, as the query (or the command line's options) gives them. */
export interface AuditLogQuery {
  actor?: string | undefined;
  action?: string | undefined;
  object_type?: string | undefined;
  object_id?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
}

/**
 * The store's filters of a query: `actor` is `cli`, `anonymous` or a member's user id; `since`
 * and `until` instants with a time zone, `until` after `since` (422 naming them otherwise).
 */
export function auditLogFilters(query: AuditLogQuery): AuditLogFilters {
  const instant = (name: 'since' | 'until'): string | undefined => {
    const text = query[name];
    if (text === undefined) return undefined;
    const at = instantOf(text);
    if (at === undefined) throw ServiceError.invalid({ in: 'query', name, message: 'must be an RFC 3339 date-time with a time zone, e.g. 2026-11-01T00:00:00Z' });
    return at.toISOString();
  };
  const since = instant('since');
  const until = instant('until');
  if (since !== undefined && until !== undefined && until <= since) throw ServiceError.invalid({ in: 'query', name: 'until', message: 'must be after since' });
  const actor = query.actor?.toLowerCase();
  return {
    actorType: actor === undefined ? undefined : actor === CLI_ACTOR ? 'cli' : actor === ANONYMOUS_ACTOR ? 'anonymous' : 'member',
    actorUserId: actor === undefined || actor === CLI_ACTOR || actor === ANONYMOUS_ACTOR ? undefined : actor,
    action: query.action,
    objectType: query.object_type,
    objectId: query.object_id?.toLowerCase(),
    since,
    until,
  };
}
