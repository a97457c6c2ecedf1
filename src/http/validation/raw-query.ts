import type { Request, Response } from 'express';

/**
 * The query string as the client sent it (after UUIDs were lower-cased), not `req.query`, which the
 * validator coerces and fills with defaults: what the checks of unknown, empty and integer
 * parameters read. Parsed once per request, by whichever check reads it first, and kept with the
 * rest of the request's context (`res.locals`, as request-context.ts keeps it); the checks only read it.
 */
export function rawQuery(req: Request, res: Response): URLSearchParams {
  const kept = res.locals.rawQuery as URLSearchParams | undefined;
  if (kept !== undefined) return kept;
  const mark = req.originalUrl.indexOf('?');
  const query = new URLSearchParams(mark < 0 ? '' : req.originalUrl.slice(mark + 1));
  res.locals.rawQuery = query;
  return query;
}
