// One error class per kind of refusal, so callers branch with `instanceof` and read typed fields.
// Each class sets its `name` as a string: a minifier renames classes.
import type { FieldError, ResponseMeta, Scope } from './contract-types.js';
import type { ErrorCode } from './generated/operations.js';

/** The `{code, messages, data}` envelope every error answer of the service carries. */
export interface ErrorEnvelope {
  code: ErrorCode;
  messages: string;
  data: unknown;
}

/** Any answer that is not a success: the HTTP status, the envelope and the response's metadata. */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  /** The service's code, from the contract's registry; null when the answer was not an envelope (a proxy's page). */
  readonly code: ErrorCode | null;
  /** The envelope's explanation, for people. */
  readonly messages: string;
  /** The envelope's `data`: null on most errors (the subclasses type the others). */
  readonly data: unknown;

  constructor(
    readonly meta: ResponseMeta,
    envelope: ErrorEnvelope | null,
  ) {
    const messages = envelope?.messages ?? `HTTP ${meta.status}`;
    super(`${meta.status}${envelope ? ` (${envelope.code})` : ''}: ${messages}`);
    this.code = envelope?.code ?? null;
    this.messages = messages;
    this.data = envelope?.data ?? null;
  }

  get status(): number {
    return this.meta.status;
  }

  /** `X-Request-Id` of the answer: quote it to support. */
  get requestId(): string | null {
    return this.meta.requestId;
  }
}

/** 401: no credential, or one that is malformed, unknown, revoked or expired (4021, 4022). */
export class AuthenticationError extends ApiError {
  override readonly name: string = 'AuthenticationError';
}

/** 403: the key lacks a scope (4023: `required` and `missing` name them) or the member's role is not enough (4030). */
export class PermissionError extends ApiError {
  override readonly name: string = 'PermissionError';
  get required(): Scope[] {
    return (this.data as { required?: Scope[] } | null)?.required ?? [];
  }
  get missing(): Scope[] {
    return (this.data as { missing?: Scope[] } | null)?.missing ?? [];
  }
}

/** 402 (1916): the workspace has no active subscription. */
export class PaymentRequiredError extends ApiError {
  override readonly name: string = 'PaymentRequiredError';
}

/** 404 (4040): no such resource in this workspace. */
export class NotFoundError extends ApiError {
  override readonly name: string = 'NotFoundError';
}

/** 409: the change conflicts with the workspace's state (4090), its `Idempotency-Key` still runs (4091), or a cap is reached (4092). */
export class ConflictError extends ApiError {
  override readonly name: string = 'ConflictError';
}

/**
 * 409 (4090) with `Idempotent-Replayed: true`: an earlier request under the same `Idempotency-Key`
 * created `resourceId`, and its answer carried a secret, shown once and never stored. If that answer
 * was lost, revoke the resource and create another.
 */
export class SecretShownOnceError extends ConflictError {
  override readonly name: string = 'SecretShownOnceError';
  /** The resource the first request created (the service names it in `messages`). */
  get resourceId(): string | null {
    return /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.exec(this.messages)?.[0] ?? null;
  }
}

/** 422 (4220, 4221): invalid input; `fieldErrors` names each, as `{in, name, message}`. */
export class ValidationError extends ApiError {
  override readonly name: string = 'ValidationError';
  get fieldErrors(): FieldError[] {
    return (this.data as { errors?: FieldError[] } | null)?.errors ?? [];
  }
}

/** 429 (4290): the workspace's rate limit is spent; `retryAfter` seconds until a request frees up. */
export class RateLimitError extends ApiError {
  override readonly name: string = 'RateLimitError';
  get retryAfter(): number | null {
    return this.meta.retryAfter;
  }
}

/** 503 (5030, 5031), or 502/504 from a proxy: the service cannot answer now; `retryAfter` seconds when it says. */
export class UnavailableError extends ApiError {
  override readonly name: string = 'UnavailableError';
  get retryAfter(): number | null {
    return this.meta.retryAfter;
  }
}

/** No answer: the connection failed or broke (after the retries the client was allowed). */
export class ConnectionError extends Error {
  override readonly name: string = 'ConnectionError';
}

/** No answer within the call's `timeout` (after the retries the client was allowed). */
export class TimeoutError extends ConnectionError {
  override readonly name: string = 'TimeoutError';
}

const BY_STATUS: Record<number, typeof ApiError> = {
  401: AuthenticationError,
  402: PaymentRequiredError,
  403: PermissionError,
  404: NotFoundError,
  409: ConflictError,
  422: ValidationError,
  429: RateLimitError,
  502: UnavailableError,
  503: UnavailableError,
  504: UnavailableError,
};

/** The error of a refused call, by its status (and, for a replayed secret, its code and header). */
export function errorFor(meta: ResponseMeta, envelope: ErrorEnvelope | null): ApiError {
  if (meta.status === 409 && envelope?.code === 4090 && meta.replayed) return new SecretShownOnceError(meta, envelope);
  return new (BY_STATUS[meta.status] ?? ApiError)(meta, envelope);
}

/** The body, when it is the service's envelope. */
export function asEnvelope(body: unknown): ErrorEnvelope | null {
  const b = body as Partial<ErrorEnvelope> | null;
  return typeof b?.code === 'number' && typeof b.messages === 'string' && 'data' in b ? (b as ErrorEnvelope) : null;
}
