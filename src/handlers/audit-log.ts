import type { AdminOperationHandler } from '../operations/handler-types.js';
import { auditLogFilters, toAuditEntryView } from '../audit/audit-log.js';
import { readCreatedOrderPage } from '../pagination/created-order-page.js';
import { ok } from '../operations/success.js';

export const listAuditLog: AdminOperationHandler<'listAuditLog'> = async ({ operationId, path, query, store, cursors }) => {
  const filters = auditLogFilters(query);
  return ok(await readCreatedOrderPage(
    cursors,
    { list: operationId, workspaceId: path.workspace_id, filters: { ...filters } },
    query,
    async (limit, after) => (await store.auditLog.listPage(path.workspace_id, filters, limit, after)).map(toAuditEntryView),
    (entry) => [entry.occurred_at, entry.id],
  ));
};
