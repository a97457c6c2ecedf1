import type { Store } from '../store/index.js';
import type { ApiRequestCount } from '../store/interfaces/workspace-profile.js';
import { DeferredWriter } from '../store/deferred-writer.js';
import { dayOf } from '../analytics/periods.js';

const FLUSH_EVERY_MS = 1_000;

/** Requests per workspace and UTC day. */
type Counts = Map<string, Map<number, number>>;

function add(into: Counts, workspaceId: string, day: number, n: number): void {
  let days = into.get(workspaceId);
  if (!days) {
    days = new Map();
    into.set(workspaceId, days);
  }
  days.set(day, (days.get(day) ?? 0) + n);
}

function sum(counts: Counts, workspaceId: string, fromDay: number, toDay: number): number {
  let total = 0;
  for (const [day, n] of counts.get(workspaceId) ?? []) if (day >= fromDay && day <= toDay) total += n;
  return total;
}

/** What the usage reads need of the counter: the requests it has not written yet. */
export interface PendingRequestCounts {
  /** Requests of the workspace on the epoch days `fromDay..toDay` not yet written. */
  pending(workspaceId: string, fromDay: number, toDay: number): number;
}

/**
 * Counts authenticated API requests per workspace and UTC day. A database write per request would
 * cost more than the request itself, so counts accumulate in memory and are added in one write
 * about once a second, never waiting for the lock (while an import in another process holds it,
 * they keep accumulating and land within a second of its commit), and on shutdown. Reads of the
 * usage add what is still pending here, so a client sees its own requests at once.
 */
export class ApiRequestCounter extends DeferredWriter implements PendingRequestCounts {
  private pendingCounts: Counts = new Map();
  /** The batch being written: still counted as pending until the write is done. */
  private writingCounts: Counts = new Map();

  constructor(
    private readonly store: Store,
    flushEveryMs = FLUSH_EVERY_MS,
  ) {
    super(flushEveryMs);
  }

  record(workspaceId: string, now: Date): void {
    add(this.pendingCounts, workspaceId, dayOf(now.getTime()), 1);
    this.schedule();
  }

  pending(workspaceId: string, fromDay: number, toDay: number): number {
    return sum(this.pendingCounts, workspaceId, fromDay, toDay) + sum(this.writingCounts, workspaceId, fromDay, toDay);
  }

  protected hasPending(): boolean {
    return this.pendingCounts.size > 0;
  }

  protected async writePending(): Promise<void> {
    this.writingCounts = this.pendingCounts;
    this.pendingCounts = new Map();
    const batch: ApiRequestCount[] = [];
    for (const [workspaceId, days] of this.writingCounts) for (const [day, n] of days) batch.push([workspaceId, day, n]);
    try {
      await this.store.workspaceProfile.addApiRequests(batch);
    } catch (err) {
      for (const [workspaceId, days] of this.writingCounts) for (const [day, n] of days) add(this.pendingCounts, workspaceId, day, n);
      throw err;
    } finally {
      this.writingCounts = new Map();
    }
  }
}
