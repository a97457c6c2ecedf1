import type { NextFunction, Request, Response } from 'express';
import { ServiceError } from '../errors/service-error.js';
import { Codes } from '../errors/codes.js';
import { sendEnvelope } from './envelope.js';
import { unsupportedBody } from './validation/json-body.js';
import { DatabaseBusyError, isDatabaseUnreachable, OutcomeUnknownError } from '../store/errors.js';
import { IdempotencyClaimLostError } from '../store/idempotency-rows.js';
import { idempotencyInProgress } from './idempotent-writes.js';

/** Seconds a client waits before retrying a write the database lock refused: imports commit within seconds to minutes. */
const BUSY_RETRY_AFTER_SECONDS = 1;
/** Seconds a client waits before retrying when the database does not answer: it reconnects on the next request. */
const UNREACHABLE_RETRY_AFTER_SECONDS = 1;
import { fieldErrorsOf } from './validation/validation-errors.js';

interface ValidatorHttpError {
  status: number;
  message?: string;
  headers?: Record<string, string>;
  errors?: Array<{ path?: string; message?: string; errorCode?: string }>;
}

function isValidatorError(err: unknown): err is ValidatorHttpError {
  return typeof err === 'object' && err !== null && typeof (err as { status?: unknown }).status === 'number'
    && Array.isArray((err as { errors?: unknown }).errors);
}

/** Translates any thrown value into a ServiceError; unknown errors become 5000 and are logged. */
function toApiError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  if (isValidatorError(err)) {
    // The validator raises 400 and 415 only: it parses no multipart body (validation/request-validator.ts).
    switch (err.status) {
      case 400: {
        const [first, ...more] = fieldErrorsOf(err.errors ?? []);
        return first ? ServiceError.invalid(first, ...more) : ServiceError.invalidBody(err.message ?? 'is invalid');
      }
      case 415:
        return unsupportedBody('Unsupported media type: send the body as application/json.');
      default:
        break;
    }
  }
  if (err instanceof OutcomeUnknownError) {
    return new ServiceError('OUTCOME_UNKNOWN', 'The database connection broke while the change was committing, so whether it took effect is unknown. '
      + 'Send the request again with the same Idempotency-Key: its first answer is kept if it took effect.', null, { 'Retry-After': String(UNREACHABLE_RETRY_AFTER_SECONDS) });
  }
  if (err instanceof IdempotencyClaimLostError) return idempotencyInProgress();
  if (err instanceof DatabaseBusyError) {
    return new ServiceError('UNAVAILABLE', 'The database is busy with another write (an import); nothing was changed. Retry after Retry-After seconds.',
      null, { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) });
  }
  if (isDatabaseUnreachable(err)) {
    return new ServiceError('UNAVAILABLE', `The database does not answer now. Retry after ${UNREACHABLE_RETRY_AFTER_SECONDS} second.`,
      null, { 'Retry-After': String(UNREACHABLE_RETRY_AFTER_SECONDS) });
  }
  return new ServiceError('INTERNAL', 'Internal error; quote the X-Request-Id header when reporting it.');
}

/**
 * The error middleware. `onDatabaseAway` hears of each request refused because the database does
 * not answer (`dependency-outages.ts` logs the outage once, not each request).
 */
export function errorHandler(onDatabaseAway: (err: unknown) => void = () => undefined) {
  // Express recognises error middleware by its four parameters.
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const apiError = toApiError(err);
    const log = (req as Request & { log?: Record<'error' | 'warn', (o: object, m: string) => void> }).log;
    // A dependency busy or away is expected, and retried by the client: its outage is logged once
    // where it is watched (the database here, Redis by its client), the request's 503 by the
    // request log. A lost COMMIT is rare and worth a look each time.
    if (apiError.code === Codes.OUTCOME_UNKNOWN) log?.warn({ err }, 'a COMMIT was lost: its outcome is unknown');
    else if (apiError.code === Codes.UNAVAILABLE) {
      if (err instanceof DatabaseBusyError) log?.warn({ cause: err.message }, 'refused: the database is busy with another write');
      else if (isDatabaseUnreachable(err)) onDatabaseAway(err);
    } else if (apiError.status >= 500) log?.error({ err }, 'unexpected error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.set(apiError.headers);
    sendEnvelope(res, apiError.status, apiError.code, apiError.message, apiError.data);
  };
}
