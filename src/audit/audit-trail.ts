import type { AuditAction, AuditObject } from './record-audit.js';

/** What one cascaded change did, before the request's actor, address and request id are added. */
export interface CascadedChange {
  action: AuditAction;
  object: AuditObject;
}

/**
 * The objects a write reached beyond its own (the keys and tokens a member's removal revoked),
 * noted by the handler as it learns them; each becomes an audit entry in the write's transaction.
 */
export class AuditTrail {
  private readonly changes: CascadedChange[] = [];

  cascade(change: CascadedChange): void {
    this.changes.push(change);
  }

  get entries(): readonly CascadedChange[] {
    return this.changes;
  }
}
