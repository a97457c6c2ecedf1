import type { CreatedPosition } from './list-pages.js';

type AuditActorType = 'member' | 'cli' | 'anonymous';
export type AuditOutcome = 'succeeded' | 'forbidden' | 'failed';

/** One entry of a workspace's audit log, as stored. It never holds a secret. */
export interface AuditRow {
  id: string;
  workspace_id: string;
  occurred_at: string;
  actor_type: AuditActorType;
  /** The member's user id; null for the command line and for nobody authenticated. */
  actor_user_id: string | null;
  action: string;
  object_type: string | null;
  object_id: string | null;
  /** The client's address as the service resolved it; null for the command line. */
  address: string | null;
  request_id: string | null;
  outcome: AuditOutcome;
}

/** Which entries a page of the log holds; an absent filter takes every entry. */
export interface AuditLogFilters {
  actorType?: AuditActorType | undefined;
  actorUserId?: string | undefined;
  action?: string | undefined;
  objectType?: string | undefined;
  objectId?: string | undefined;
  /** Entries at or after this stored timestamp. */
  since?: string | undefined;
  /** Entries before this stored timestamp. */
  until?: string | undefined;
}

/** The audit log of every workspace. */
export interface AuditLogStore {
  /**
   * Adds the entries. Inside `Store.atomically` (or an idempotent write's unit of work) they commit
   * or roll back with the change they record. An entry for a workspace that does not exist is
   * dropped: a refused attempt on a path may name any workspace id.
   */
  append(rows: readonly AuditRow[]): Promise<void>;
  /** Up to `limit` entries of the workspace, newest first (time, then id, descending), after `position`. */
  listPage(workspaceId: string, filters: AuditLogFilters, limit: number, position?: CreatedPosition): Promise<AuditRow[]>;
  /** Removes up to `batch` entries of any workspace older than `cutoff` (a stored timestamp), oldest first; resolves how many. */
  pruneBefore(cutoff: string, batch: number): Promise<number>;
}
