import type { Request } from 'express';

/**
 * The query string as the client sent it (after UUIDs were lower-cased), not `req.query`, which the
 * validator coerces and fills with defaults: what the checks of unknown, empty and integer
 * parameters read.
 */
export function rawQuery(req: Request): URLSearchParams {
  const mark = req.originalUrl.indexOf('?');
  return new URLSearchParams(mark < 0 ? '' : req.originalUrl.slice(mark + 1));
}
