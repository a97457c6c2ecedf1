import type { Store } from '../store/index.js';
import { DeferredWriter, onePerStore } from '../store/deferred-writer.js';

const MINUTE_MS = 60_000;
const RETRY_EVERY_MS = 1_000;

/**
 * Records `last_used_at` at most once a minute per key: the in-memory map spares the write on hot
 * keys, and the conditional UPDATE keeps the rule when several processes share the file. The
 * write is made at once when the lock is free and never waited for: while an import in another
 * process holds the lock, the uses wait in memory (with the instant of the use) and are written
 * within a second of its commit, or at shutdown.
 */
export class LastUsedRecorder extends DeferredWriter {
  private readonly recorded = new Map<string, number>();
  private readonly waiting = new Map<string, number>();

  constructor(store: Store, retryEveryMs = RETRY_EVERY_MS) {
    super(store, retryEveryMs);
  }

  record(keyId: string, now: Date): void {
    const nowMs = now.getTime();
    const previous = this.recorded.get(keyId);
    if (previous !== undefined && nowMs - previous < MINUTE_MS) return;
    if (this.recorded.size > 100_000) this.recorded.clear(); // bounded memory; a clear costs one write per key
    this.recorded.set(keyId, nowMs);
    this.waiting.set(keyId, nowMs);
    if (!this.flush()) this.schedule();
  }

  protected hasPending(): boolean {
    return this.waiting.size > 0;
  }

  protected writePending(): void {
    const { db, apiKeys } = this.store;
    db.transaction(() => {
      for (const [keyId, ms] of this.waiting) {
        apiKeys.touch(keyId, new Date(ms).toISOString(), new Date(ms - MINUTE_MS).toISOString());
      }
    })();
    this.waiting.clear();
  }
}

const recorders = onePerStore((store) => new LastUsedRecorder(store));

/** The `recordUse` the authentication middlewares call on every accepted API key. */
export function createLastUsedRecorder(store: Store): (keyId: string, now: Date) => void {
  const recorder = recorders.of(store);
  return (keyId, now) => recorder.record(keyId, now);
}

/** Writes the key uses still waiting for the lock and stops retrying (shutdown). */
export function flushKeyUses(store: Store): void {
  recorders.existing(store)?.finish();
}
