import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import type { PostgresPool } from './pool.js';

/** One connection of a pool, inside a transaction, that the statements of a unit of work run on. */
interface Pinned {
  pool: PostgresPool;
  client: pg.PoolClient;
  /** False once the unit is over: work it started that outlives it (a timer) goes back to the pool. */
  open: boolean;
  savepoints: number;
}

const scope = new AsyncLocalStorage<Pinned>();

/**
 * The connection the current unit of work holds on `pool`, if any: a statement addressed to the
 * pool runs on it instead, inside the unit's transaction.
 */
export function pinnedClient(on: unknown): pg.PoolClient | undefined {
  const pinned = scope.getStore();
  return pinned?.open && pinned.pool === on ? pinned.client : undefined;
}

/** The name of the next savepoint of the current unit (a transaction of the store nested in it). */
export function nextSavepoint(): string {
  const pinned = scope.getStore();
  if (!pinned) throw new Error('a savepoint outside a unit of work');
  pinned.savepoints += 1;
  return `unit_${pinned.savepoints}`;
}

/**
 * Runs `work` with every statement it sends to `pool` going to `client`, which is inside a
 * transaction the caller opened: the store's methods take part in it without knowing, and a
 * transaction of theirs becomes a savepoint.
 */
export async function withPinnedClient<T>(pool: PostgresPool, client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  const pinned: Pinned = { pool, client, open: true, savepoints: 0 };
  try {
    return await scope.run(pinned, work);
  } finally {
    pinned.open = false;
  }
}
