import { Codes, type Code } from './codes.js';
import { describeFieldErrors, type FieldError } from './field-errors.js';

/**
 * Every error the service answers, each with its code (`codes.ts`) and its HTTP status, in one
 * place: a call site names the error, never a number, and the error middleware
 * (`src/http/error-handler.ts`) turns it into the envelope.
 */
const ERRORS = {
  MALFORMED_REQUEST: { status: 400, code: Codes.MALFORMED_REQUEST },
  KEY_MISSING: { status: 401, code: Codes.KEY_MISSING },
  KEY_INVALID: { status: 401, code: Codes.KEY_INVALID },
  PAYMENT_REQUIRED: { status: 402, code: Codes.PAYMENT_REQUIRED },
  SCOPE_MISSING: { status: 403, code: Codes.SCOPE_MISSING },
  ROLE_FORBIDDEN: { status: 403, code: Codes.ROLE_FORBIDDEN },
  NOT_FOUND: { status: 404, code: Codes.NOT_FOUND },
  METHOD_NOT_ALLOWED: { status: 405, code: Codes.METHOD_NOT_ALLOWED },
  REQUEST_TIMEOUT: { status: 408, code: Codes.REQUEST_TIMEOUT },
  CONFLICT: { status: 409, code: Codes.CONFLICT },
  IDEMPOTENCY_IN_PROGRESS: { status: 409, code: Codes.IDEMPOTENCY_IN_PROGRESS },
  LIMIT_REACHED: { status: 409, code: Codes.LIMIT_REACHED },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, code: Codes.UNSUPPORTED_MEDIA_TYPE },
  INVALID_PARAMETERS: { status: 422, code: Codes.INVALID_PARAMETERS },
  IDEMPOTENCY_MISMATCH: { status: 422, code: Codes.IDEMPOTENCY_MISMATCH },
  RATE_LIMITED: { status: 429, code: Codes.RATE_LIMITED },
  HEADERS_TOO_LARGE: { status: 431, code: Codes.HEADERS_TOO_LARGE },
  INTERNAL: { status: 500, code: Codes.INTERNAL },
  UNAVAILABLE: { status: 503, code: Codes.UNAVAILABLE },
  OUTCOME_UNKNOWN: { status: 503, code: Codes.OUTCOME_UNKNOWN },
} as const satisfies Record<string, { status: number; code: Code }>;

export type ErrorName = keyof typeof ERRORS;

/** The one error type: thrown anywhere (domain, store, HTTP), turned into the envelope in one place. */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: Code;

  constructor(
    readonly error: ErrorName,
    message: string,
    readonly data: unknown = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    this.status = ERRORS[error].status;
    this.code = ERRORS[error].code;
  }

  static notFound(what = 'Resource'): ServiceError {
    return new ServiceError('NOT_FOUND', `${what} not found.`);
  }

  /** 422: `messages` names each invalid input for people, `data.errors` lists them for programs. */
  static invalid(...errors: [FieldError, ...FieldError[]]): ServiceError {
    return new ServiceError('INVALID_PARAMETERS', `Invalid parameters: ${describeFieldErrors(errors)}.`, { errors });
  }

  /** 422 for a body that cannot be read at all (not JSON, too large, another encoding). */
  static invalidBody(message: string): ServiceError {
    return new ServiceError('INVALID_PARAMETERS', `Invalid request body: ${message}.`, { errors: [{ in: 'body', name: '', message }] });
  }
}
