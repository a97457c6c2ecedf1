import { isDatabaseUnreachable, OutcomeUnknownError } from '../errors.js';
import {
  answerParams,
  decideOnExisting,
  IDEMPOTENCY_SQL as SQL,
  IdempotencyClaimLostError,
  keyOf,
  newClaimRow,
  type IdempotencyRow,
} from '../idempotency-rows.js';
import type { ClaimOutcome, IdempotencyClaim, IdempotencyStore, StoredAnswer } from '../interfaces/idempotency.js';
import { withPinnedClient } from './pinned-transaction.js';
import type { PostgresPool } from './pool.js';
import { inTransaction, row, run } from './query.js';

/** SQLSTATE of a lock not taken within lock_timeout. */
const LOCK_NOT_AVAILABLE = '55P03';

const lockNotAvailable = (err: unknown): boolean => (err as { code?: unknown } | null)?.code === LOCK_NOT_AVAILABLE;

/**
 * How long a look at a claim's row waits for the lock another transaction holds on it: the
 * running request's own (it finishes in milliseconds once its COMMIT arrives), or a broken
 * connection's that the server has not noticed yet.
 */
const ROW_LOCK_WAIT_MS = 200;
/** Looks at a claim's row after a lost COMMIT before answering that the outcome is unknown. */
const OUTCOME_LOOKS = 3;

const SELECT_FOR_UPDATE = `${SQL.get} FOR UPDATE`;

/** The answers of the administration API's POSTs on PostgreSQL (`../interfaces/idempotency.ts`). */
export function createPostgresIdempotencyStore(pool: PostgresPool): IdempotencyStore {
  /** Drops the claim if the row still holds it; a failure leaves the lease to expire. */
  async function release(claim: IdempotencyClaim): Promise<void> {
    await run(pool, SQL.release, keyOf(claim));
  }

  /**
   * After a COMMIT whose answer was lost: the claim's row, once its lock is free (the broken
   * connection's transaction is over, one way or the other), says whether the write committed.
   */
  async function outcomeOf(claim: IdempotencyClaim): Promise<'committed' | 'not-committed' | 'unknown'> {
    for (let look = 0; look < OUTCOME_LOOKS; look += 1) {
      try {
        return await inTransaction(pool, async (client) => {
          await client.query(`SET LOCAL lock_timeout = ${ROW_LOCK_WAIT_MS}`);
          const current = await row<IdempotencyRow>(client, SELECT_FOR_UPDATE, keyOf(claim));
          if (current?.token !== claim.token) return 'not-committed';
          if (current.state === 'done') return 'committed';
          await run(client, SQL.release, keyOf(claim));
          return 'not-committed';
        });
      } catch (err) {
        if (!lockNotAvailable(err) && !isDatabaseUnreachable(err)) throw err;
      }
    }
    return 'unknown';
  }

  return {
    async claim(request): Promise<ClaimOutcome> {
      const fresh = newClaimRow(request);
      return inTransaction(pool, async (client) => {
        await run(client, SQL.forgetExpired, { workspace_id: request.workspaceId, now: request.now.toISOString() });
        if ((await run(client, SQL.insert, fresh)) === 1) return { outcome: 'claimed', claim: { workspaceId: request.workspaceId, key: request.key, token: fresh.token } };
        const existing = await row<IdempotencyRow>(client, SQL.get, fresh);
        if (!existing) return { outcome: 'running' };
        const decision = decideOnExisting(existing, request);
        if (decision.outcome !== 'take-over') return decision;
        // The holder's transaction, if it still runs, locks the row: it is still running then.
        await client.query(`SET LOCAL lock_timeout = ${ROW_LOCK_WAIT_MS}`);
        try {
          const taken = await run(client, SQL.takeOver, { ...fresh, previous_token: existing.token });
          return taken === 1 ? { outcome: 'claimed', claim: { workspaceId: request.workspaceId, key: request.key, token: fresh.token } } : { outcome: 'running' };
        } catch (err) {
          if (lockNotAvailable(err)) return { outcome: 'running' };
          throw err;
        }
      });
    },

    async complete<T>(claim: IdempotencyClaim, work: () => Promise<T>, answerOf: (result: T) => StoredAnswer): Promise<T> {
      const client = await pool.connect();
      let result: T;
      try {
        await client.query('BEGIN');
        // Locked until the COMMIT: a takeover waits for it, and a look after a lost COMMIT too.
        const held = await row<IdempotencyRow>(client, SELECT_FOR_UPDATE, keyOf(claim));
        if (held?.token !== claim.token || held.state !== 'running') throw new IdempotencyClaimLostError();
        result = await withPinnedClient(pool, client, work);
        await run(client, SQL.finish, answerParams(claim, answerOf(result)));
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release(isDatabaseUnreachable(err) ? asError(err) : undefined);
        if (!(err instanceof IdempotencyClaimLostError)) await release(claim).catch(() => undefined);
        throw err;
      }
      try {
        await client.query('COMMIT');
      } catch (err) {
        client.release(asError(err));
        if (!isDatabaseUnreachable(err)) throw err;
        const outcome = await outcomeOf(claim).catch(() => 'unknown' as const);
        if (outcome === 'committed') return result;
        if (outcome === 'not-committed') throw err;
        throw new OutcomeUnknownError(err);
      }
      client.release();
      return result;
    },

    async keep(claim, answer): Promise<void> {
      await run(pool, SQL.finish, answerParams(claim, answer));
    },

    release,
  };
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
