import type pg from 'pg';
import { DatabaseBusyError } from '../errors.js';
import type { PostgresPool } from './pool.js';
import { inTransaction } from './query.js';

/**
 * How long a background write waits for a row lock another transaction holds before it gives up.
 * PostgreSQL locks rows, not the database, so such a wait is short and rare (an owner's edit of
 * the same webhook, another instance's outcome on it); 50 ms is what SQLite's serving writes wait.
 */
const BACKGROUND_LOCK_WAIT_MS = 50;

/** SQLSTATEs of a lock not taken in time (lock_timeout) and of a deadlock PostgreSQL broke. */
const LOCK_NOT_AVAILABLE = '55P03';
const DEADLOCK_DETECTED = '40P01';

function lockLost(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return code === LOCK_NOT_AVAILABLE || code === DEADLOCK_DETECTED;
}

/**
 * Runs `work` in a transaction whose statements wait at most BACKGROUND_LOCK_WAIT_MS for a row lock:
 * the writes of the delivery loop, which the store's interface says never wait for another writer
 * (`../interfaces/webhook-deliveries.ts`). A lock not taken in time, or a deadlock, rolls everything
 * back and rejects with DatabaseBusyError, and the loop tries again later.
 */
export async function inTransactionWithoutWaiting<T>(pool: PostgresPool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  try {
    return await inTransaction(pool, async (client) => {
      await client.query(`SET LOCAL lock_timeout = ${BACKGROUND_LOCK_WAIT_MS}`);
      return work(client);
    });
  } catch (err) {
    if (lockLost(err)) throw new DatabaseBusyError();
    throw err;
  }
}
