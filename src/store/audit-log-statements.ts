// Statements both databases run as written, word for word: the SQLite store (sqlite/audit-log.ts)
// and the PostgreSQL one (postgres/audit-log.ts) share them.
import type { AuditLogFilters } from './interfaces/audit-log.js';
import type { CreatedPosition } from './interfaces/list-pages.js';
import { filterIfGiven } from './record-list-sql.js';

const COLUMNS = 'id, workspace_id, occurred_at, actor_type, actor_user_id, action, object_type, object_id, address, request_id, outcome';

const WHERE = [
  'workspace_id = @workspace_id',
  filterIfGiven('actor_type'),
  filterIfGiven('actor_user_id'),
  filterIfGiven('action'),
  filterIfGiven('object_type'),
  filterIfGiven('object_id'),
  '(CAST(@since AS TEXT) IS NULL OR occurred_at >= @since)',
  '(CAST(@until AS TEXT) IS NULL OR occurred_at < @until)',
].join(' AND ');

// Newest first; the row-value comparison seeks audit_log_by_workspace backwards.
const ORDER = 'ORDER BY occurred_at DESC, id DESC LIMIT @limit';

export const AUDIT_LOG_SQL = {
  // A refused attempt may name a workspace id that does not exist: nothing is written for it.
  append: `INSERT INTO audit_log (${COLUMNS})
    SELECT @id, @workspace_id, @occurred_at, @actor_type, @actor_user_id, @action, @object_type, @object_id, @address, @request_id, @outcome
    WHERE EXISTS (SELECT 1 FROM workspaces WHERE id = @workspace_id)`,
  first: `SELECT ${COLUMNS} FROM audit_log WHERE ${WHERE} ${ORDER}`,
  after: `SELECT ${COLUMNS} FROM audit_log WHERE ${WHERE} AND (occurred_at, id) < (@after_occurred_at, @after_id) ${ORDER}`,
  pruneBefore: 'DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE occurred_at < ? ORDER BY occurred_at LIMIT ?)',
} as const;

/** The named parameters of a page of the log. */
export function auditPageParams(workspaceId: string, filters: AuditLogFilters, limit: number, position?: CreatedPosition): Record<string, unknown> {
  return {
    workspace_id: workspaceId,
    actor_type: filters.actorType ?? null,
    actor_user_id: filters.actorUserId ?? null,
    action: filters.action ?? null,
    object_type: filters.objectType ?? null,
    object_id: filters.objectId ?? null,
    since: filters.since ?? null,
    until: filters.until ?? null,
    limit,
    ...(position === undefined ? {} : { after_occurred_at: position[0], after_id: position[1] }),
  };
}
