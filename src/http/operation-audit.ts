// What the audit log records of an administration operation, as its `x-audit` in the contract says
// (compiled at start-up, packages/contract/src/contract-operations.ts): the action it performs (or,
// for a read, the action a refused attempt names) and the object it acts on.
import type { ContractOperation, OperationAudit as WrittenAudit } from '@workspace-read-api/contract/contract-operations.js';
import type { AuditAction, AuditObject, AuditObjectType } from '../audit/record-audit.js';

/** An operation's `x-audit`, in the contract's own types. */
interface OperationAudit extends WrittenAudit {
  action: AuditAction;
  object: { type: AuditObjectType; idParameter: string | null } | null;
}

/**
 * What the audit log records of the operation; null when its contract states nothing. The values
 * are the contract's `AuditAction` and `AuditObjectType`: the start-up refuses any other.
 */
export function auditOf(operation: ContractOperation): OperationAudit | null {
  return operation.audit as OperationAudit | null;
}

/** The id of the first object in an answer's `data` that has one: the resource it is about (`data.api_key.id` of a new key). */
export function resourceIdOf(answer: unknown): string | null {
  const data = (answer as { data?: unknown } | null)?.data;
  if (data === null || typeof data !== 'object') return null;
  for (const value of Object.values(data as Record<string, unknown>)) {
    const id = (value as { id?: unknown } | null)?.id;
    if (typeof id === 'string') return id;
  }
  return null;
}

/**
 * The object an operation acts on: its id from the path, or from the answer of a creation; with no
 * answer (a refused attempt to create), the type alone.
 */
export function auditObjectOf(audit: OperationAudit, path: Record<string, unknown>, answer?: unknown): AuditObject | null {
  if (audit.object === null) return null;
  const { type, idParameter } = audit.object;
  const fromPath = idParameter === null ? undefined : path[idParameter];
  if (typeof fromPath === 'string') return { type, id: fromPath.toLowerCase() };
  return { type, id: answer === undefined ? null : resourceIdOf(answer) };
}
