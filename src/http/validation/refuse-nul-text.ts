import type { NextFunction, Request, Response } from 'express';
import type { FieldError } from '../../errors/field-errors.js';
import { ServiceError } from '../../errors/service-error.js';
import { matchedOperation } from '../request-context.js';
import { rawQuery } from './raw-query.js';

const NUL = '\u0000';
const MESSAGE = 'must not hold NUL (\\u0000): text never does';

/** Every string (and object key) of a JSON body holding NUL, named by its path (`events.0`). */
function nulFieldsOf(value: unknown, path: string[], found: FieldError[]): void {
  if (typeof value === 'string') {
    if (value.includes(NUL)) found.push({ in: 'body', name: path.join('.'), message: MESSAGE });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => nulFieldsOf(item, [...path, String(i)], found));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes(NUL)) found.push({ in: 'body', name: [...path, key].join('.'), message: MESSAGE });
      else nulFieldsOf(item, [...path, key], found);
    }
  }
}

/**
 * Text never holds NUL (`\u0000`), on either store: PostgreSQL cannot store it in text, and SQLite
 * would keep it where no client expects it. One rule for every operation of the contract, derived
 * from the request rather than listed per field: a path parameter, a query value or any string of
 * a JSON body holding NUL is a 422 naming each of them. Headers never reach here with one: the
 * HTTP parser refuses NUL in a header (400).
 */
export function refuseNulText() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const found: FieldError[] = [];
    for (const [name, value] of Object.entries(matchedOperation(res)?.params ?? {})) {
      if (value.includes(NUL)) found.push({ in: 'path', name, message: MESSAGE });
    }
    const named = new Set<string>();
    for (const [name, value] of rawQuery(req, res)) {
      if (!named.has(name) && (value.includes(NUL) || name.includes(NUL))) {
        named.add(name);
        found.push({ in: 'query', name, message: MESSAGE });
      }
    }
    nulFieldsOf(req.body, [], found);
    const [first, ...rest] = found;
    next(first === undefined ? undefined : ServiceError.invalid(first, ...rest));
  };
}
