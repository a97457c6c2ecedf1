import type { AuditLogFilters, AuditLogStore, AuditRow } from '../interfaces/audit-log.js';
import type { CreatedPosition } from '../interfaces/list-pages.js';
import { AUDIT_LOG_SQL, auditPageParams } from '../audit-log-statements.js';
import { inTransaction, rows, run } from './query.js';
import type { PostgresPool } from './pool.js';

/** The audit log on PostgreSQL (`../interfaces/audit-log.ts`). */
export function createPostgresAuditLogStore(pool: PostgresPool): AuditLogStore {
  return {
    async append(entries: readonly AuditRow[]): Promise<void> {
      if (entries.length === 0) return;
      // Inside a unit of work this is a savepoint of its transaction: the entries commit with the change.
      await inTransaction(pool, async (tx) => {
        for (const entry of entries) await run(tx, AUDIT_LOG_SQL.append, entry);
      });
    },
    listPage: (workspaceId: string, filters: AuditLogFilters, limit: number, position?: CreatedPosition) =>
      rows<AuditRow>(pool, position === undefined ? AUDIT_LOG_SQL.first : AUDIT_LOG_SQL.after, auditPageParams(workspaceId, filters, limit, position)),
    pruneBefore: (cutoff: string, batch: number) => run(pool, AUDIT_LOG_SQL.pruneBefore, [cutoff, batch]),
  };
}
