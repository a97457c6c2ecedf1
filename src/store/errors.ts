/**
 * Thrown by a store when a write cannot take the lock it needs in time: another writer (an import
 * in another process) holds it longer than the caller may wait. Nothing was written; the same call
 * may succeed later. The HTTP layer answers it with 503 (code 5030) and Retry-After.
 */
export class DatabaseBusyError extends Error {
  constructor(message = 'the database is locked by another writer') {
    super(message);
    this.name = 'DatabaseBusyError';
  }
}

/** Socket errors of a database server that is away (stopped, restarting, unreachable). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * SQLSTATEs of a server that cannot serve now: connection exceptions (class 08), shutting down or
 * starting up (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now), too many
 * connections (53300).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;

/** node-postgres's own messages when a connection breaks or cannot be had in time. */
const CONNECTION_LOST = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/**
 * True when `err` says the database server cannot be reached or is going away, rather than that
 * a statement was wrong: the same request may succeed once the server is back. The HTTP layer
 * answers it with 503 (code 5030) and Retry-After, never 500.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const { code } = err as Error & { code?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
  if (CONNECTION_LOST.test(err.message)) return true;
  // An AggregateError (a host with several addresses, each refused) or a wrapped cause.
  if (err instanceof AggregateError) return err.errors.some(isDatabaseUnreachable);
  return err.cause !== undefined && err.cause !== err && isDatabaseUnreachable(err.cause);
}

/**
 * The COMMIT of a write was sent and its answer lost (the connection broke), and nothing could
 * tell afterwards whether it took effect. The HTTP layer answers 503 with a code of its own: the
 * client retries with the same Idempotency-Key, which the first request's row settles.
 */
export class OutcomeUnknownError extends Error {
  constructor(cause?: unknown) {
    super('the database connection broke during COMMIT; whether the write took effect is unknown', { cause });
    this.name = 'OutcomeUnknownError';
  }
}
