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

function addDays(into: Map<number, number>, counts: Counts, workspaceId: string, fromDay: number, toDay: number): void {
  for (const [day, n] of counts.get(workspaceId) ?? []) if (day >= fromDay && day <= toDay) into.set(day, (into.get(day) ?? 0) + n);
}

/** What the usage reads need of the counter: the requests it has not written yet. */
export interface PendingRequestCounts {
  /** Requests of the workspace on the epoch days `fromDay..toDay` not yet written. */
  pending(workspaceId: string, fromDay: number, toDay: number): number;
  /**
   * The written requests (`readWritten`, a read of the store) plus the pending ones, each request
   * counted once: no write of counts commits while the read runs.
   */
  served(workspaceId: string, fromDay: number, toDay: number, readWritten: () => Promise<number>): Promise<number>;
  /** `served` per epoch day: the written counts of each day (`readWritten`) plus the pending ones; days without any are absent. */
  servedByDay(workspaceId: string, fromDay: number, toDay: number, readWritten: () => Promise<ReadonlyArray<{ day: number; requests: number }>>): Promise<Map<number, number>>;
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
  /** Reads of the written counts in progress (`served`): a write waits for them. */
  private readonly readers = new Set<Promise<void>>();
  /** The write of a batch once it no longer waits for readers. */
  private committing: Promise<void> | undefined;

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

  served(workspaceId: string, fromDay: number, toDay: number, readWritten: () => Promise<number>): Promise<number> {
    return this.readWhileNoWriteCommits(async () => (await readWritten()) + this.pending(workspaceId, fromDay, toDay));
  }

  servedByDay(workspaceId: string, fromDay: number, toDay: number, readWritten: () => Promise<ReadonlyArray<{ day: number; requests: number }>>): Promise<Map<number, number>> {
    return this.readWhileNoWriteCommits(async () => {
      const byDay = new Map((await readWritten()).map((d) => [d.day, d.requests]));
      addDays(byDay, this.pendingCounts, workspaceId, fromDay, toDay);
      addDays(byDay, this.writingCounts, workspaceId, fromDay, toDay);
      return byDay;
    });
  }

  // On a network database the read and a write of the counts interleave: were the write to commit
  // after the read's snapshot and clear `writingCounts` before the sum, its requests would be
  // counted neither as written nor as pending. So the read registers first (a later write waits
  // for it), waits for a write already committing, reads, and sums before it lets writes go on.
  private async readWhileNoWriteCommits<T>(readAndSum: () => Promise<T>): Promise<T> {
    let done!: () => void;
    const reading = new Promise<void>((resolve) => {
      done = resolve;
    });
    this.readers.add(reading);
    try {
      await this.committing;
      return await readAndSum();
    } finally {
      this.readers.delete(reading);
      done();
    }
  }

  protected hasPending(): boolean {
    return this.pendingCounts.size > 0;
  }

  protected async writePending(): Promise<void> {
    while (this.readers.size > 0) await Promise.all(this.readers);
    if (this.pendingCounts.size === 0) return;
    this.committing = this.commitPending();
    try {
      await this.committing;
    } finally {
      this.committing = undefined;
    }
  }

  private async commitPending(): Promise<void> {
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
