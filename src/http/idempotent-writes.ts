import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { ServiceError } from '../errors/service-error.js';
import type { Store } from '../store/index.js';
import type { StoredAnswer } from '../store/interfaces/idempotency.js';
import { IDEMPOTENCY_KEY_HEADER as KEY_HEADER, type ContractOperation } from '@workspace-read-api/contract/contract-operations.js';
import { scrubSecrets } from './secret-redaction.js';
import { resourceIdOf } from './operation-audit.js';

/** The response header of an answer given again from the first request's. */
const REPLAYED_HEADER = 'Idempotent-Replayed';

/** Seconds a retry waits for the first request under the same key to finish. */
const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

interface Answer {
  status: number;
  body: unknown;
}

export function idempotencyInProgress(): ServiceError {
  return new ServiceError('IDEMPOTENCY_IN_PROGRESS', `A request with this ${KEY_HEADER} is still running. Retry after Retry-After seconds to get its answer.`,
    null, { 'Retry-After': String(IN_PROGRESS_RETRY_AFTER_SECONDS) });
}

/** JSON with every object's keys in order: the same body, however its keys were ordered, is the same request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The operation, its path parameters and its body: what must match for a retry to be the same request. */
function fingerprintOf(operationId: string, path: Record<string, unknown>, body: unknown): string {
  return createHash('sha256').update(canonicalJson([operationId, path, body ?? null])).digest('hex');
}

/** The answer as kept: the body, unless it carries a secret (a key, a token, a webhook secret), which is never stored. */
function storedAnswerOf(answer: Answer): StoredAnswer {
  const body = JSON.stringify(answer.body);
  if (scrubSecrets(body) === body) return { status: answer.status, body, resource_id: null };
  return { status: answer.status, body: null, resource_id: resourceIdOf(answer.body) };
}

/** The first request's answer again, or the 409 that says its secret was shown once. */
function replay(answer: StoredAnswer, res: Response): Answer {
  res.set(REPLAYED_HEADER, 'true');
  if (answer.body !== null) return { status: answer.status, body: JSON.parse(answer.body) as unknown };
  throw new ServiceError('CONFLICT', `The first request with this ${KEY_HEADER} succeeded for ${answer.resource_id ?? 'its resource'}, and its answer carried a secret, `
    + 'which is shown once and never stored. If it was lost, revoke that resource and create another.');
}

/**
 * Runs an operation that takes an `Idempotency-Key` (the contract declares the header on it, as on
 * every administration POST) under the key, when the request carries one: the first request
 * runs, its answer kept (in the same transaction as its writes) for 24 hours; a retry with the
 * same key and request gets that answer with `Idempotent-Replayed: true`; the key on another
 * request is a 422 (4221), and a retry while the first still runs a 409 (4091). Errors are not
 * kept: nothing was written, and a retry runs again.
 */
export async function runIdempotently(
  req: Request,
  res: Response,
  deps: {
    store: Store;
    now: Date;
    operation: ContractOperation;
    path: Record<string, unknown>;
    /**
     * What the request looks up on the network (a webhook URL's host), run before the unit of work
     * opens and only when the request runs at all (not for a replay): no transaction or pooled
     * connection waits on a name server.
     */
    first?: (() => Promise<unknown>) | undefined;
  },
  run: () => Promise<Answer>,
): Promise<Answer> {
  const key = deps.operation.idempotent ? req.get(KEY_HEADER) : undefined;
  const workspaceId = deps.path.workspace_id;
  // A write is one transaction, its audit entries included; one that acts without writing (a test
  // delivery) holds none open while it waits for the receiver. What the request looks up on the
  // network comes before either.
  const { operation } = deps;
  const transactional = operation.method !== 'GET' && operation.method !== 'HEAD' && !operation.actsWithoutWriting;
  if (key === undefined || typeof workspaceId !== 'string') {
    await deps.first?.();
    return transactional ? deps.store.atomically(run) : run();
  }
  const { store } = deps;
  const claimed = await store.idempotency.claim({
    workspaceId,
    key,
    fingerprint: fingerprintOf(deps.operation.operationId, deps.path, req.body),
    now: deps.now,
  });
  switch (claimed.outcome) {
    case 'running':
      throw idempotencyInProgress();
    case 'mismatch': {
      const message = 'was first used with another request (another operation, path or body); use a new key for a new request';
      throw new ServiceError('IDEMPOTENCY_MISMATCH', `Invalid parameters: header.${KEY_HEADER} ${message}.`, { errors: [{ in: 'header', name: KEY_HEADER, message }] });
    }
    case 'replay':
      return replay(claimed.answer, res);
    case 'claimed':
      break;
  }
  if (deps.first) {
    try {
      await deps.first();
    } catch (err) {
      // Refused before anything was written: a retry under the same key runs again.
      await store.idempotency.release(claimed.claim).catch(() => undefined);
      throw err;
    }
  }
  // What acts without writing (`x-acts-without-writing`) keeps its answer after the fact, and no transaction stays open while it waits.
  if (transactional) return store.idempotency.complete(claimed.claim, run, storedAnswerOf);
  let answer: Answer;
  try {
    answer = await run();
  } catch (err) {
    await store.idempotency.release(claimed.claim).catch(() => undefined);
    throw err;
  }
  await store.idempotency.keep(claimed.claim, storedAnswerOf(answer));
  return answer;
}
