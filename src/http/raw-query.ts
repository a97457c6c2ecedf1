import type { Request } from 'express';

const parsed = new WeakMap<Request, URLSearchParams>();

/**
 * The query string as the client sent it (after UUIDs were lower-cased), not `req.query`, which the
 * validator coerces and fills with defaults: what the checks of unknown, empty and integer
 * parameters read. Parsed once per request, by whichever check reads it first; the checks only read it.
 */
export function rawQuery(req: Request): URLSearchParams {
  let query = parsed.get(req);
  if (query === undefined) {
    const mark = req.originalUrl.indexOf('?');
    query = new URLSearchParams(mark < 0 ? '' : req.originalUrl.slice(mark + 1));
    parsed.set(req, query);
  }
  return query;
}
