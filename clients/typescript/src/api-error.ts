/**
 * Every answer that is not a success, as one error type: the `{code, messages, data}` envelope the
 * service sends with every error, plus the HTTP status and the request id to quote to support.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** The HTTP status (401, 404, 422, 429, 503, ...). */
    readonly status: number,
    /** The service's code (4040, 4220, ...; the contract lists them); null when the answer was not an envelope (a proxy's page). */
    readonly code: number | null,
    /** The envelope's explanation for people. */
    readonly messages: string,
    /** The envelope's `data`: null on most errors; `{errors: [{in, name, message}]}` on 422, `{required, missing}` on 403. */
    readonly data: unknown,
    /** `X-Request-Id` of the answer, or null. */
    readonly requestId: string | null,
  ) {
    super(`${status}${code === null ? '' : ` (${code})`}: ${messages}`);
  }

  /** Reads an error answer whose body was already parsed (or could not be). */
  static from(response: Response, body: unknown): ApiError {
    const requestId = response.headers.get('x-request-id');
    if (isEnvelope(body)) return new ApiError(response.status, body.code, body.messages, body.data, requestId);
    return new ApiError(response.status, null, response.statusText || `HTTP ${response.status}`, null, requestId);
  }
}

function isEnvelope(body: unknown): body is { code: number; messages: string; data: unknown } {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'number'
    && typeof (body as { messages?: unknown }).messages === 'string' && 'data' in body;
}
