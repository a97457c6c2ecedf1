// Keeping the audit log for AUDIT_LOG_RETENTION_DAYS: older entries are removed in small batches,
// at start and then every hour, by every instance (deleting what another already deleted is harmless).
import type { Store } from '../store/index.js';
import { DAY_MS } from '../analytics/periods.js';

/** Entries removed per statement: short transactions that never hold the write lock for long. */
const PRUNE_BATCH = 1_000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** The instant before which entries are past `retentionDays`. */
function retentionCutoff(retentionDays: number, now: Date): string {
  return new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
}

/** Removes every entry of every workspace older than `retentionDays`; resolves how many. */
export async function pruneAuditLog(store: Store, retentionDays: number, now: Date = new Date()): Promise<number> {
  const cutoff = retentionCutoff(retentionDays, now);
  let removed = 0;
  for (;;) {
    const batch = await store.auditLog.pruneBefore(cutoff, PRUNE_BATCH);
    removed += batch;
    if (batch < PRUNE_BATCH) return removed;
  }
}

/**
 * Prunes at start and every hour until `stop()`. A prune that fails (the database busy with an
 * import, or away) is reported and tried again at the next turn.
 */
export function startAuditLogPruner(options: {
  store: Store;
  retentionDays: number;
  onPruned: (removed: number) => void;
  onError: (err: unknown) => void;
  everyMs?: number;
}): { stop: () => Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const turn = (): void => {
    running = running.then(async () => {
      try {
        const removed = await pruneAuditLog(options.store, options.retentionDays);
        if (removed > 0) options.onPruned(removed);
      } catch (err) {
        options.onError(err);
      }
    });
  };
  turn();
  const timer = setInterval(turn, options.everyMs ?? PRUNE_EVERY_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
