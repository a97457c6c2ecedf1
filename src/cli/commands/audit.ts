import type { Command } from '../command.js';
import { CliError } from '../args.js';
import { existingWorkspace, wholeNumber } from '../validate.js';
import { auditLogFilters, toAuditEntryView, type AuditLogEntry } from '../../audit/audit-log.js';
import { pruneAuditLog } from '../../audit/audit-log-retention.js';
import { ServiceError } from '../../errors/service-error.js';
import type { CreatedPosition } from '../../store/interfaces/list-pages.js';

/** Entries read per page of the store while listing. */
const PAGE = 500;

function actorOf(entry: AuditLogEntry): string {
  return entry.actor.user_id ?? entry.actor.type;
}

/** The workspace's audit log, newest first, as GET /audit-log filters it. */
export const auditList: Command = {
  name: 'audit list',
  usage: 'audit list --workspace ID [--actor USER_ID|cli|anonymous] [--action ACTION] [--object-type TYPE] [--object-id ID] [--since RFC3339] [--until RFC3339] [--limit N]',
  async run({ options, store }) {
    const db = await store();
    const workspace = await existingWorkspace(db, options.required('workspace'));
    const limit = wholeNumber(options.optional('limit'), 'limit', 1, 100_000) ?? 100;
    let filters;
    try {
      filters = auditLogFilters({
        actor: options.optional('actor'),
        action: options.optional('action'),
        object_type: options.optional('object-type'),
        object_id: options.optional('object-id'),
        since: options.optional('since'),
        until: options.optional('until'),
      });
    } catch (err) {
      if (err instanceof ServiceError) throw new CliError(err.message.replace(/^Invalid parameters: query\./, '--'));
      throw err;
    }
    const entries: AuditLogEntry[] = [];
    let after: CreatedPosition | undefined;
    while (entries.length < limit) {
      const want = Math.min(PAGE, limit - entries.length);
      const rows = await db.auditLog.listPage(workspace.id, filters, want, after);
      entries.push(...rows.map(toAuditEntryView));
      const last = rows.at(-1);
      if (last === undefined || rows.length < want) break;
      after = [last.occurred_at, last.id];
    }
    return { entries };
  },
  text: (r: { entries: AuditLogEntry[] }) =>
    r.entries.length === 0
      ? 'no entries'
      : r.entries.map((e) => [
        e.occurred_at,
        actorOf(e),
        e.action,
        e.object === null ? '-' : `${e.object.type}:${e.object.id ?? '-'}`,
        e.outcome,
        e.address ?? '-',
        e.request_id ?? '-',
      ].join('  ')).join('\n'),
};

/** Removes the entries past their retention now, as the server does every hour. */
export const auditPrune: Command = {
  name: 'audit prune',
  usage: 'audit prune [--retention-days N]',
  async run({ options, store, auditLogRetentionDays }) {
    const days = wholeNumber(options.optional('retention-days'), 'retention-days', 1, 100_000) ?? auditLogRetentionDays;
    return { removed: await pruneAuditLog(await store(), days), retention_days: days };
  },
  text: (r: { removed: number; retention_days: number }) => `removed ${r.removed} audit log entries older than ${r.retention_days} days`,
};
