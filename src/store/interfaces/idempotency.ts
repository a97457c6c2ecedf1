/** What a first request answered, as kept for its retries: never a secret. */
export interface StoredAnswer {
  status: number;
  /** The JSON body as it was sent; null when it carried a secret, which is never kept. */
  body: string | null;
  /** The id of the resource the request created, kept when the body is not (it carried a secret). */
  resource_id: string | null;
}

/** A request that carries an `Idempotency-Key`. */
export interface IdempotentRequest {
  workspaceId: string;
  key: string;
  /** A hash of the operation, its path and its body: the same key on another request is refused. */
  fingerprint: string;
  now: Date;
}

/** The claim a request holds while it runs; a takeover (the holder died) gives another token. */
export interface IdempotencyClaim {
  workspaceId: string;
  key: string;
  token: string;
}

/** What the first request under a key says about this one. */
export type ClaimOutcome =
  | { outcome: 'claimed'; claim: IdempotencyClaim }
  | { outcome: 'running' }
  | { outcome: 'mismatch' }
  | { outcome: 'replay'; answer: StoredAnswer };

/**
 * The answers of the administration API's POSTs, per workspace and `Idempotency-Key`, for
 * IDEMPOTENCY_WINDOW_MS; every instance over the database sees them.
 */
export interface IdempotencyStore {
  /**
   * Claims the key for this request (an expired answer is forgotten first), or says why not: the
   * first request is still running, it was another request, or its answer is kept.
   */
  claim(request: IdempotentRequest): Promise<ClaimOutcome>;
  /**
   * Runs `work` so that every write it makes through this store and the answer `answerOf` makes
   * of its result commit together, in one transaction, or not at all. When the work throws,
   * nothing is kept and the claim is dropped, so a retry runs again. When the commit is lost (the
   * connection broke), the claim's row tells what happened: committed resolves the result; known
   * not committed rejects with an unreachable database's error; otherwise OutcomeUnknownError.
   */
  complete<T>(claim: IdempotencyClaim, work: () => Promise<T>, answerOf: (result: T) => StoredAnswer): Promise<T>;
  /** Keeps the answer of a request that wrote nothing (a test delivery), after the fact. */
  keep(claim: IdempotencyClaim, answer: StoredAnswer): Promise<void>;
  /** Drops the claim of a request that failed, so that a retry runs again. */
  release(claim: IdempotencyClaim): Promise<void>;
}

/** How long an answer is kept: a retry within it is answered from the first request. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claim holds without its holder committing: past it, a retry takes the key over (the
 * first instance died). Longer than a request runs (a test delivery waits WEBHOOK_TIMEOUT_MS, 15 s by default).
 */
export const IDEMPOTENCY_LEASE_MS = 60_000;
