import { Codes, type Code } from './codes.js';

/** The one error type: thrown anywhere, turned into the envelope by the error middleware. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: Code,
    message: string,
    readonly data: unknown = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static notFound(what = 'Resource'): ApiError {
    return new ApiError(404, Codes.NOT_FOUND, `${what} not found.`);
  }

  static invalid(message: string): ApiError {
    return new ApiError(422, Codes.INVALID_PARAMETERS, `Invalid parameters: ${message}`);
  }
}
