import { Codes, type Code } from './codes.js';
import { describeFieldErrors, type FieldError } from './validation-errors.js';

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

  /** 422: `messages` names each invalid input for people, `data.errors` lists them for programs. */
  static invalid(...errors: [FieldError, ...FieldError[]]): ApiError {
    return new ApiError(422, Codes.INVALID_PARAMETERS, `Invalid parameters: ${describeFieldErrors(errors)}.`, { errors });
  }

  /** 422 for a body that cannot be read at all (not JSON, too large, another encoding). */
  static invalidBody(message: string): ApiError {
    return new ApiError(422, Codes.INVALID_PARAMETERS, `Invalid request body: ${message}.`, { errors: [{ in: 'body', name: '', message }] });
  }
}
