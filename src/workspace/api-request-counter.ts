import type { Store } from '../store/index.js';
import type { ApiRequestCount } from '../store/workspace-profile.js';
import { DeferredWriter, onePerStore } from '../store/deferred-writer.js';
import { dayOf } from '../analytics/periods.js';

const FLUSH_EVERY_MS = 1_000;

/**
 * Counts authenticated API requests per workspace and UTC day. A database write per request would
 * cost more than the request itself, so counts accumulate in memory and are added in one
 * statement about once a second, never waiting for the lock (while an import in another process
 * holds it, they keep accumulating and land within a second of its commit), and on shutdown.
 * Reads of the usage add what is still pending here, so a client sees its own requests at once.
 */
export class ApiRequestCounter extends DeferredWriter {
  private pendingCounts = new Map<string, Map<number, number>>();

  constructor(store: Store, flushEveryMs = FLUSH_EVERY_MS) {
    super(store, flushEveryMs);
  }

  record(workspaceId: string, now: Date): void {
    const day = dayOf(now.getTime());
    let days = this.pendingCounts.get(workspaceId);
    if (!days) {
      days = new Map();
      this.pendingCounts.set(workspaceId, days);
    }
    days.set(day, (days.get(day) ?? 0) + 1);
    this.schedule();
  }

  /** Requests of the workspace on the epoch days `fromDay..toDay` not yet written. */
  pending(workspaceId: string, fromDay: number, toDay: number): number {
    let total = 0;
    for (const [day, n] of this.pendingCounts.get(workspaceId) ?? []) if (day >= fromDay && day <= toDay) total += n;
    return total;
  }

  protected hasPending(): boolean {
    return this.pendingCounts.size > 0;
  }

  protected writePending(): void {
    const batch: ApiRequestCount[] = [];
    for (const [workspaceId, days] of this.pendingCounts) for (const [day, n] of days) batch.push([workspaceId, day, n]);
    this.store.workspaceProfile.addApiRequests(batch);
    this.pendingCounts.clear();
  }
}

const counters = onePerStore((store) => new ApiRequestCounter(store));

export function apiRequestCounterFor(store: Store): ApiRequestCounter {
  return counters.of(store);
}

/** Writes the pending request counts of this database and stops the periodic flush (shutdown). */
export function flushApiRequestCounts(store: Store): void {
  counters.existing(store)?.finish();
}
