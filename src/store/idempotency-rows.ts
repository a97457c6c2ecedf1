import { randomUUID } from 'node:crypto';
import {
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_WINDOW_MS,
  type ClaimOutcome,
  type IdempotencyClaim,
  type IdempotentRequest,
  type StoredAnswer,
} from './interfaces/idempotency.js';

/** A row of `idempotency_keys`, the same on both databases. */
export interface IdempotencyRow {
  workspace_id: string;
  idempotency_key: string;
  fingerprint: string;
  state: 'running' | 'done';
  token: string;
  lease_until: string;
  status: number | null;
  body: string | null;
  resource_id: string | null;
  created_at: string;
  expires_at: string;
}

/** Statements both databases run word for word (`@name` parameters). */
export const IDEMPOTENCY_SQL = {
  forgetExpired: 'DELETE FROM idempotency_keys WHERE workspace_id = @workspace_id AND expires_at <= @now',
  insert: `INSERT INTO idempotency_keys (workspace_id, idempotency_key, fingerprint, state, token, lease_until, status, body,
      resource_id, created_at, expires_at)
    VALUES (@workspace_id, @idempotency_key, @fingerprint, 'running', @token, @lease_until, NULL, NULL, NULL, @created_at, @expires_at)
    ON CONFLICT (workspace_id, idempotency_key) DO NOTHING`,
  get: 'SELECT * FROM idempotency_keys WHERE workspace_id = @workspace_id AND idempotency_key = @idempotency_key',
  takeOver: `UPDATE idempotency_keys SET token = @token, lease_until = @lease_until, fingerprint = @fingerprint
    WHERE workspace_id = @workspace_id AND idempotency_key = @idempotency_key AND token = @previous_token AND state = 'running'`,
  finish: `UPDATE idempotency_keys SET state = 'done', status = @status, body = @body, resource_id = @resource_id
    WHERE workspace_id = @workspace_id AND idempotency_key = @idempotency_key AND token = @token AND state = 'running'`,
  release: `DELETE FROM idempotency_keys
    WHERE workspace_id = @workspace_id AND idempotency_key = @idempotency_key AND token = @token AND state = 'running'`,
} as const;

/** The row a new claim inserts, with its token. */
export function newClaimRow(request: IdempotentRequest): Omit<IdempotencyRow, 'state' | 'status' | 'body' | 'resource_id'> {
  const at = request.now.getTime();
  return {
    workspace_id: request.workspaceId,
    idempotency_key: request.key,
    fingerprint: request.fingerprint,
    token: randomUUID(),
    lease_until: new Date(at + IDEMPOTENCY_LEASE_MS).toISOString(),
    created_at: request.now.toISOString(),
    expires_at: new Date(at + IDEMPOTENCY_WINDOW_MS).toISOString(),
  };
}

export const keyOf = (claim: IdempotencyClaim) => ({ workspace_id: claim.workspaceId, idempotency_key: claim.key, token: claim.token });

export const answerParams = (claim: IdempotencyClaim, answer: StoredAnswer) => ({ ...keyOf(claim), ...answer });

/**
 * What an existing row says about a request under the same key: a running claim whose lease has
 * passed may be taken over, by any request (its holder died before committing, so the key is free).
 * A running first request wins over a mismatch: the retry cannot know yet which one it is.
 */
export function decideOnExisting(row: IdempotencyRow, request: IdempotentRequest): ClaimOutcome | { outcome: 'take-over' } {
  if (row.state === 'running') return row.lease_until > request.now.toISOString() ? { outcome: 'running' } : { outcome: 'take-over' };
  if (row.fingerprint !== request.fingerprint) return { outcome: 'mismatch' };
  return { outcome: 'replay', answer: { status: row.status ?? 200, body: row.body, resource_id: row.resource_id } };
}

/** A claim whose lease passed and that another request took over: this one must not commit. */
export class IdempotencyClaimLostError extends Error {
  constructor() {
    super('the Idempotency-Key was taken over by a retry after this request held it past its lease');
    this.name = 'IdempotencyClaimLostError';
  }
}
