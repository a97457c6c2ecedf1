import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './api-error.js';
import { Codes } from './codes.js';
import { sendEnvelope } from './envelope.js';
import { fieldErrorsOf } from './validation-errors.js';

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

/** Translates any thrown value into an ApiError; unknown errors become 5000 and are logged. */
export function toApiError(err: unknown, req: Request): ApiError {
  if (err instanceof ApiError) return err;
  if (isValidatorError(err)) {
    switch (err.status) {
      case 400: {
        const [first, ...more] = fieldErrorsOf(err.errors ?? []);
        return first ? ApiError.invalid(first, ...more) : ApiError.invalidBody(err.message ?? 'is invalid');
      }
      case 404:
        return new ApiError(404, Codes.NOT_FOUND, `No route ${req.method} ${req.path}.`);
      case 405: {
        // In the order of an OpenAPI path item, so `Allow` reads the same as the contract.
        const order = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'];
        const allow = (err.headers?.Allow ?? 'GET').toUpperCase().split(/\s*,\s*/)
          .sort((a, b) => order.indexOf(a) - order.indexOf(b)).join(', ');
        return new ApiError(405, Codes.METHOD_NOT_ALLOWED,
          `Method ${req.method} is not allowed on this path; allowed: ${allow}.`, null, { Allow: allow });
      }
      case 413:
      case 415:
        return ApiError.invalidBody(err.message ?? 'unsupported');
      default:
        break;
    }
  }
  // body-parser's JSON syntax errors carry `type: 'entity.parse.failed'`.
  if (typeof err === 'object' && err !== null && (err as { type?: unknown }).type === 'entity.parse.failed') {
    return ApiError.invalidBody('not valid JSON');
  }
  // body-parser's other refusals: a body over the size limit, an unsupported charset or encoding.
  const bodyError = typeof err === 'object' && err !== null ? (err as { type?: unknown }).type : undefined;
  if (bodyError === 'entity.too.large') return ApiError.invalidBody('larger than 100 KB');
  if (bodyError === 'charset.unsupported' || bodyError === 'encoding.unsupported') {
    return ApiError.invalidBody('send UTF-8 JSON without content encoding');
  }
  return new ApiError(500, Codes.INTERNAL, 'Internal error; quote the X-Request-Id header when reporting it.');
}

export function errorHandler() {
  // Express recognises error middleware by its four parameters.
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const apiError = toApiError(err, req);
    if (apiError.status >= 500) {
      (req as Request & { log?: { error: (o: object, m: string) => void } }).log?.error({ err }, 'unexpected error');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.set(apiError.headers);
    sendEnvelope(res, apiError.status, apiError.code, apiError.message, apiError.data);
  };
}
