// The registry of service codes carried in the envelope's `code`. One place: the OpenAPI
// document pins each response's code to one of these values.
export const Codes = {
  OK: 2000,
  ME_OK: 4020,
  EVENT_CATALOG_OK: 8010,
  /** Administration API: a resource was created (HTTP 201). */
  CREATED: 2010,
  /** Administration API: work was queued and runs in the background (HTTP 202). */
  ACCEPTED: 2020,
  /** Administration API: a resource was deleted or a member removed. */
  DELETED: 2040,
  /** Administration API: the caller's role does not allow the operation (HTTP 403). */
  ROLE_FORBIDDEN: 4030,
  /** Administration API: the request conflicts with the workspace's state (HTTP 409). */
  CONFLICT: 4090,
  /** Administration API: a request with the same `Idempotency-Key` is still running (HTTP 409); retry after `Retry-After`. */
  IDEMPOTENCY_IN_PROGRESS: 4091,
  /** Administration API: the workspace already holds as many active API keys or webhooks as it may (HTTP 409). */
  LIMIT_REACHED: 4092,
  /** 400 from the HTTP parser: a request line, header or framing it cannot read (src/http/client-error.ts). */
  MALFORMED_REQUEST: 4000,
  KEY_MISSING: 4021,
  KEY_INVALID: 4022,
  SCOPE_MISSING: 4023,
  PAYMENT_REQUIRED: 1916,
  NOT_FOUND: 4040,
  METHOD_NOT_ALLOWED: 4050,
  /** 408 from the server: a request that started did not arrive within the timeouts (src/http/client-error.ts). */
  REQUEST_TIMEOUT: 4080,
  /** 415: a body in a Content-Encoding, media type or charset the service does not read. */
  UNSUPPORTED_MEDIA_TYPE: 4150,
  INVALID_PARAMETERS: 4220,
  /** 422: the `Idempotency-Key` was first used with another request (another operation, path or body). */
  IDEMPOTENCY_MISMATCH: 4221,
  RATE_LIMITED: 4290,
  /** 431 from the HTTP parser: the request's headers are larger than the server accepts. */
  HEADERS_TOO_LARGE: 4310,
  INTERNAL: 5000,
  /** 503: a dependency is unavailable for now (the database's write lock, held by an import); retry after `Retry-After`. */
  UNAVAILABLE: 5030,
  /** 503: the database connection broke while a change was committing, and whether it took effect is unknown; retry with the same `Idempotency-Key`. */
  OUTCOME_UNKNOWN: 5031,
} as const;

export type Code = (typeof Codes)[keyof typeof Codes];
