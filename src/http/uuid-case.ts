import type { NextFunction, Request, Response } from 'express';
import { parametersByOperation } from '@workspace-read-api/contract/contract-parameters.js';

// RFC 9562 lets a UUID be written in either case and says it means the same UUID. Ids are stored
// and answered in lower case (the import lower-cases them too), so every id a request carries is
// lower-cased before anything looks it up.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** `text` lower-cased when it is a UUID in upper or mixed case; undefined otherwise. */
function lowerUuid(text: string | undefined): string | undefined {
  return text !== undefined && UUID.test(text) && text !== text.toLowerCase() ? text.toLowerCase() : undefined;
}

function normalisedUrl(url: string, uuidQueryNames: ReadonlySet<string>): string {
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  // Path segments as written: a %-escaped segment is no UUID in the contract's sense and stays as it is.
  const newPath = path.split('/').map((segment) => lowerUuid(segment) ?? segment).join('/');
  if (mark < 0) return newPath;
  const query = url.slice(mark + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0 || !uuidQueryNames.has(decoded(pair.slice(0, eq)) ?? '')) return pair;
    const value = lowerUuid(decoded(pair.slice(eq + 1)));
    return value === undefined ? pair : `${pair.slice(0, eq)}=${value}`;
  });
  return `${newPath}?${query.join('&')}`;
}

/**
 * Before any routing: UUIDs in path segments, and in the query parameters the contract declares
 * `format: uuid`, become lower case. Both `url` and `originalUrl` change, because the guards, the
 * validator and the dispatcher read one or the other, and all must see the same request.
 */
export function lowerCaseUuidsInUrl(document: object) {
  const uuidQueryNames = new Set<string>();
  for (const parameters of parametersByOperation(document).values()) {
    for (const p of parameters) if (p.in === 'query' && p.schema.format === 'uuid') uuidQueryNames.add(p.name);
  }
  return (req: Request, _res: Response, next: NextFunction): void => {
    // Without an upper-case letter or a percent escape (`%41` is `A`) there is nothing to lower-case.
    if (!/[A-Z%]/.test(req.url)) {
      next();
      return;
    }
    const url = normalisedUrl(req.url, uuidQueryNames);
    if (url !== req.url) {
      req.url = url;
      req.originalUrl = url;
    }
    next();
  };
}
