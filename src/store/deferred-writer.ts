import { setTimeout as sleep } from 'node:timers/promises';
import { DatabaseBusyError, isDatabaseUnreachable } from './errors.js';

/** How long a graceful shutdown waits for the lock to write what the server kept in memory. */
const SHUTDOWN_WRITE_WAIT_MS = 5_000;

// While the lock is taken at shutdown, another try this often until the wait is over.
const SHUTDOWN_RETRY_MS = 25;

/**
 * Writes that no request may wait for (when a key was last used, how many requests a workspace
 * made): a subclass keeps them in memory and `writePending` stores them through a store method
 * that never waits for the lock (it rejects with DatabaseBusyError instead). `flush` writes now if
 * the lock is free; while something is pending, `schedule` makes sure another try comes within
 * `everyMs`. An import in another process holds the lock for a whole file, so the writes wait in
 * memory meanwhile and land within `everyMs` of its commit; `finish` (shutdown) writes what is
 * left. One write at a time: a flush that finds one under way waits for it.
 */
export abstract class DeferredWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<boolean> | undefined;

  constructor(private readonly everyMs: number) {}

  /**
   * Stores everything pending in one write and forgets it; rejects (keeping it) when it cannot,
   * with DatabaseBusyError when the lock was taken. What is recorded meanwhile stays pending.
   */
  protected abstract writePending(): Promise<void>;

  protected abstract hasPending(): boolean;

  /** Something is pending: another try comes within `everyMs`. */
  protected schedule(): void {
    this.timer ??= setInterval(() => void this.flush(), this.everyMs).unref();
  }

  /** Writes what is pending if the lock is free now, without waiting for it; true when nothing is left. */
  flush(): Promise<boolean> {
    this.writing ??= this.writeNow().finally(() => {
      this.writing = undefined;
    });
    return this.writing;
  }

  private async writeNow(): Promise<boolean> {
    if (!this.hasPending()) {
      this.stop();
      return true;
    }
    try {
      await this.writePending();
    } catch (err) {
      // What is pending stays. The lock is taken, or the server is away for now: the next try
      // comes within `everyMs`. Anything else (a read-only or closed database) would fail again:
      // no more tries; `finish` reports it.
      if (!(err instanceof DatabaseBusyError) && !isDatabaseUnreachable(err)) this.stop();
      return false;
    }
    if (this.hasPending()) return false;
    this.stop();
    return true;
  }

  /**
   * Shutdown: no more tries on the timer; writes what is pending, trying again while the lock is
   * taken for up to `waitMs`, and rejects when it cannot.
   */
  async finish(waitMs = SHUTDOWN_WRITE_WAIT_MS): Promise<void> {
    this.stop();
    const deadline = Date.now() + waitMs;
    for (;;) {
      await this.writing;
      if (!this.hasPending()) return;
      try {
        await this.writePending();
        if (!this.hasPending()) return;
      } catch (err) {
        if (!(err instanceof DatabaseBusyError) || Date.now() >= deadline) throw err;
        await sleep(SHUTDOWN_RETRY_MS);
      }
    }
  }

  /** No more tries on the timer until something new is pending (what is pending stays in memory). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
