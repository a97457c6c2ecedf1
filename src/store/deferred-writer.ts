import { SHUTDOWN_WRITE_WAIT_MS, shortBusyWriter, withBusyTimeout, type Db } from './database.js';
import type { Store } from './index.js';

/**
 * Writes that no request may wait for (when a key was last used, how many requests a workspace
 * made): a subclass keeps them in memory and `writePending` stores them. `flush` writes now if the
 * lock is free and never waits for it; while something is pending, `schedule` makes sure another
 * try comes within `everyMs`. An import in another process holds the lock for a whole file, so the
 * writes wait in memory meanwhile and land within `everyMs` of its commit; `finish` (shutdown)
 * writes what is left.
 */
export abstract class DeferredWriter {
  private timer: NodeJS.Timeout | undefined;
  private readonly writeWithoutWaiting: ReturnType<typeof shortBusyWriter>;

  constructor(
    protected readonly store: Store,
    private readonly everyMs: number,
  ) {
    this.writeWithoutWaiting = shortBusyWriter(store.db, 0);
  }

  /** Stores everything pending in one transaction and forgets it; throws (keeping it) when it cannot. */
  protected abstract writePending(): void;

  protected abstract hasPending(): boolean;

  private get db(): Db {
    return this.store.db;
  }

  /** Something is pending: another try comes within `everyMs`. */
  protected schedule(): void {
    this.timer ??= setInterval(() => this.flush(), this.everyMs).unref();
  }

  /** Writes what is pending if the lock is free now, without waiting for it; true when nothing is left. */
  flush(): boolean {
    if (!this.db.open) {
      this.stop();
      return false;
    }
    if (!this.hasPending()) {
      this.stop();
      return true;
    }
    // Inside another unit of work on this connection (an import run in this process), the write
    // would commit or roll back with it: the next try comes after it.
    if (this.db.inTransaction) return false;
    try {
      const written = this.writeWithoutWaiting(() => {
        this.writePending();
        return true;
      }, false);
      if (written) this.stop();
      return written;
    } catch {
      // A read-only or failing database: what is pending stays for the next try; `finish` reports it.
      return false;
    }
  }

  /** Shutdown: no more tries; writes what is pending, waiting up to `waitMs` for the lock, and throws when it cannot. */
  finish(waitMs = SHUTDOWN_WRITE_WAIT_MS): void {
    this.stop();
    if (this.db.open && this.hasPending()) withBusyTimeout(this.db, waitMs, () => this.writePending());
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

/**
 * One instance per store: every app built over the same database shares it, and the process can
 * finish it on shutdown without holding a reference to the app.
 */
export function onePerStore<T>(make: (store: Store) => T): { of: (store: Store) => T; existing: (store: Store) => T | undefined } {
  const instances = new WeakMap<Store, T>();
  return {
    of(store) {
      let instance = instances.get(store);
      if (instance === undefined) {
        instance = make(store);
        instances.set(store, instance);
      }
      return instance;
    },
    existing: (store) => instances.get(store),
  };
}
