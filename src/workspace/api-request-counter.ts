import type { NextFunction, Request, Response } from 'express';
import type { Store } from '../store/index.js';
import type { ApiRequestCount } from '../store/workspace-profile.js';
import { getApiKeyCaller } from '../http/request-context.js';
import { dayOf } from '../analytics/periods.js';

const FLUSH_EVERY_MS = 5_000;

/**
 * Counts authenticated API requests per workspace and UTC day. A database write per request would
 * cost more than the request itself, so counts accumulate in memory and are added in one
 * statement every few seconds and on shutdown. Reads of the usage add what is still pending here,
 * so a client sees its own requests at once.
 */
export class ApiRequestCounter {
  private pendingCounts = new Map<string, Map<number, number>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: Store,
    private readonly flushEveryMs = FLUSH_EVERY_MS,
  ) {}

  record(workspaceId: string, now: Date): void {
    const day = dayOf(now.getTime());
    let days = this.pendingCounts.get(workspaceId);
    if (!days) {
      days = new Map();
      this.pendingCounts.set(workspaceId, days);
    }
    days.set(day, (days.get(day) ?? 0) + 1);
    this.timer ??= setInterval(() => this.flush(), this.flushEveryMs).unref();
  }

  /** Requests of the workspace on the epoch days `fromDay..toDay` not yet written. */
  pending(workspaceId: string, fromDay: number, toDay: number): number {
    let total = 0;
    for (const [day, n] of this.pendingCounts.get(workspaceId) ?? []) if (day >= fromDay && day <= toDay) total += n;
    return total;
  }

  /** Writes every pending count in one statement; on failure they stay pending for the next flush. */
  flush(): void {
    if (!this.store.db.open) {
      this.stop();
      return;
    }
    // Inside another unit of work on this connection (an import), the counts would commit or roll
    // back with it: wait for the next flush instead.
    if (this.pendingCounts.size === 0 || this.store.db.inTransaction) return;
    const batch: ApiRequestCount[] = [];
    for (const [workspaceId, days] of this.pendingCounts) for (const [day, n] of days) batch.push([workspaceId, day, n]);
    try {
      this.store.workspaceProfile.addApiRequests(batch);
      this.pendingCounts.clear();
    } catch (err) {
      // Busy or read-only database: keep the counts; the interval retries. Rethrown only when
      // called directly (shutdown), where the caller can report it.
      if (this.timer === undefined) throw err;
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

// One counter per store: every app built over the same database shares the pending counts, and
// the process can flush them on shutdown without holding a reference to the app.
const counters = new WeakMap<Store, ApiRequestCounter>();

export function apiRequestCounterFor(store: Store): ApiRequestCounter {
  let counter = counters.get(store);
  if (!counter) {
    counter = new ApiRequestCounter(store);
    counters.set(store, counter);
  }
  return counter;
}

/** Writes the pending request counts of this database and stops the periodic flush (shutdown). */
export function flushApiRequestCounts(store: Store): void {
  const counter = counters.get(store);
  if (!counter) return;
  counter.stop();
  counter.flush();
}

/** Middleware: counts each request that got past authentication and the rate limit. */
export function countApiRequests(deps: { store: Store; now: () => Date }) {
  const counter = apiRequestCounterFor(deps.store);
  return (_req: Request, res: Response, next: NextFunction): void => {
    counter.record(getApiKeyCaller(res).principal.workspace_id, deps.now());
    next();
  };
}
