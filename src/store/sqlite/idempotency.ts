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
import type { Db } from './database.js';
import { resolved, storeError } from './promised.js';
import type { UnitOfWork } from './unit-of-work.js';

/** The answers of the administration API's POSTs on SQLite (`../interfaces/idempotency.ts`). */
export function createIdempotencyStore(db: Db, unit: UnitOfWork): IdempotencyStore {
  const statements = {
    forgetExpired: db.prepare(SQL.forgetExpired),
    insert: db.prepare(SQL.insert),
    get: db.prepare(SQL.get),
    takeOver: db.prepare(SQL.takeOver),
    finish: db.prepare(SQL.finish),
    release: db.prepare(SQL.release),
  };

  const claim = db.transaction((request: Parameters<IdempotencyStore['claim']>[0]): ClaimOutcome => {
    const fresh = newClaimRow(request);
    const claimed = { outcome: 'claimed', claim: { workspaceId: request.workspaceId, key: request.key, token: fresh.token } } as const;
    statements.forgetExpired.run({ workspace_id: request.workspaceId, now: request.now.toISOString() });
    if (statements.insert.run(fresh).changes === 1) return claimed;
    const existing = statements.get.get(fresh) as IdempotencyRow;
    const decision = decideOnExisting(existing, request);
    if (decision.outcome !== 'take-over') return decision;
    return statements.takeOver.run({ ...fresh, previous_token: existing.token }).changes === 1 ? claimed : { outcome: 'running' };
  });

  const release = (held: IdempotencyClaim): Promise<void> => resolved(() => { statements.release.run(keyOf(held)); });

  return {
    claim: (request) => resolved(() => claim.immediate(request)),

    async complete<T>(held: IdempotencyClaim, work: () => Promise<T>, answerOf: (result: T) => StoredAnswer): Promise<T> {
      try {
        return await unit.run(async () => {
          const current = statements.get.get(keyOf(held)) as IdempotencyRow | undefined;
          if (current?.token !== held.token || current.state !== 'running') throw new IdempotencyClaimLostError();
          const result = await work();
          statements.finish.run(answerParams(held, answerOf(result)));
          return result;
        });
      } catch (err) {
        if (!(err instanceof IdempotencyClaimLostError)) await release(held).catch(() => undefined);
        throw storeError(err);
      }
    },

    keep: (held, answer) => resolved(() => { statements.finish.run(answerParams(held, answer)); }),

    release,
  };
}
