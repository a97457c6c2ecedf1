import type { Store } from '../store/index.js';
import { DeferredWriter } from '../store/deferred-writer.js';

const MINUTE_MS = 60_000;
const RETRY_EVERY_MS = 1_000;

/**
 * Records `last_used_at` at most once a minute per key: the in-memory map spares the write on hot
 * keys, and the store's conditional write keeps the rule when several processes share the
 * database. The write is made at once when the lock is free and never waited for: while an import
 * in another process holds the lock, the uses wait in memory (with the instant of the use) and
 * are written within a second of its commit, or at shutdown.
 */
export class LastUsedRecorder extends DeferredWriter {
  private readonly recorded = new Map<string, number>();
  private waiting = new Map<string, number>();

  constructor(
    private readonly store: Store,
    retryEveryMs = RETRY_EVERY_MS,
  ) {
    super(retryEveryMs);
  }

  /** The `recordUse` the authentication middlewares call on every accepted API key. */
  record(keyId: string, now: Date): void {
    const nowMs = now.getTime();
    const previous = this.recorded.get(keyId);
    if (previous !== undefined && nowMs - previous < MINUTE_MS) return;
    if (this.recorded.size > 100_000) this.recorded.clear(); // bounded memory; a clear costs one write per key
    this.recorded.set(keyId, nowMs);
    this.waiting.set(keyId, nowMs);
    void this.flush().then((done) => {
      if (!done) this.schedule();
    });
  }

  protected hasPending(): boolean {
    return this.waiting.size > 0;
  }

  protected async writePending(): Promise<void> {
    const batch = this.waiting;
    this.waiting = new Map();
    const uses = [...batch].map(([keyId, ms]) => ({ keyId, at: new Date(ms).toISOString(), notBefore: new Date(ms - MINUTE_MS).toISOString() }));
    try {
      await this.store.apiKeys.recordUses(uses);
    } catch (err) {
      // A use recorded meanwhile is later than the one that was not written: it wins.
      for (const [keyId, ms] of batch) if (!this.waiting.has(keyId)) this.waiting.set(keyId, ms);
      throw err;
    }
  }
}
