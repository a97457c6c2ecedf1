import type { Db } from './database.js';
import type { AuditLogFilters, AuditLogStore, AuditRow } from '../interfaces/audit-log.js';
import type { CreatedPosition } from '../interfaces/list-pages.js';
import { AUDIT_LOG_SQL, auditPageParams } from '../audit-log-statements.js';
import { promised } from './promised.js';

/** The audit log on SQLite (`../interfaces/audit-log.ts`). */
export function createAuditLogStore(db: Db): AuditLogStore {
  const statements = {
    append: db.prepare(AUDIT_LOG_SQL.append),
    first: db.prepare(AUDIT_LOG_SQL.first),
    after: db.prepare(AUDIT_LOG_SQL.after),
    pruneBefore: db.prepare(AUDIT_LOG_SQL.pruneBefore),
  };
  // One transaction, or a savepoint of the unit of work the entries belong to.
  const append = db.transaction((rows: readonly AuditRow[]) => {
    for (const row of rows) statements.append.run(row);
  });
  return promised({
    append(rows: readonly AuditRow[]): void {
      if (rows.length > 0) append(rows);
    },
    listPage(workspaceId: string, filters: AuditLogFilters, limit: number, position?: CreatedPosition): AuditRow[] {
      return (position === undefined ? statements.first : statements.after).all(auditPageParams(workspaceId, filters, limit, position)) as AuditRow[];
    },
    pruneBefore(cutoff: string, batch: number): number {
      return statements.pruneBefore.run(cutoff, batch).changes;
    },
  });
}
