import { createHmac, timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../errors/service-error.js';
import { MIN_CURSOR_SECRET_LENGTH } from '../config.js';
import { parseTimestamp } from '../store/timestamp.js';

/** A value a list can be ordered by: its sort keys, ending with a unique tie-breaker (usually the id). */
export type CursorValue = string | number;

/**
 * What a cursor is bound to: the list (an operationId or path), the key's workspace and every
 * filter that decides which items the list holds. Parameters that do not change the membership
 * or order of the list (`limit`, `range`) stay out, so they may change between pages.
 */
export interface CursorScope {
  list: string;
  workspaceId: string;
  filters: Record<string, string | number | boolean | null | undefined>;
}

/**
 * What one sort key of a position may hold, checked after the signature and before any query
 * sees it:
 * - `timestamp`: a date-time as the stores write them (`2026-11-22T09:15:00.000Z`, a real date);
 * - `text`: a well-formed string without NUL (an id, a URL);
 * - `integer`: a safe integer, zero or more (a count, an event number);
 * - `day`: a UTC day as days since 1970-01-01, up to 9999-12-31;
 * - `instant`: milliseconds since 1970-01-01, up to 9999-12-31T23:59:59.999Z.
 */
export type CursorField = 'timestamp' | 'text' | 'integer' | 'day' | 'instant';

type FieldValue<F extends CursorField> = F extends 'timestamp' | 'text' ? string : number;

/** The decoded position, typed by the fields a list declared. */
export type CursorPosition<K extends readonly CursorField[]> = { [I in keyof K]: FieldValue<K[I]> };

const LAST_DAY = 2_932_896; // 9999-12-31
const LAST_INSTANT = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/** Written exactly as the stores write every timestamp: UTC with milliseconds, a real calendar date. */
function isStoredTimestamp(text: string): boolean {
  const ms = parseTimestamp(text);
  return ms !== undefined && Number.isFinite(ms) && new Date(ms).toISOString() === text;
}

// Half of a UTF-16 pair without the other half: no database can store it as text.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const integerWithin = (v: unknown, max: number): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= max;

const FIELD_CHECKS: Record<CursorField, (v: unknown) => boolean> = {
  timestamp: (v) => typeof v === 'string' && isStoredTimestamp(v),
  text: (v) => typeof v === 'string' && v.length > 0 && !v.includes('\u0000') && !LONE_SURROGATE.test(v),
  integer: (v) => integerWithin(v, Number.MAX_SAFE_INTEGER),
  day: (v) => integerWithin(v, LAST_DAY),
  instant: (v) => integerWithin(v, LAST_INSTANT),
};

const VERSION = 'v2';
const MAX_CURSOR_LENGTH = 512;

const BASE64URL = /^[A-Za-z0-9_-]+$/;
// HMAC-SHA256 is 32 bytes: 43 characters of base64url without padding.
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The two parts of a text written as this service writes cursors (`payload "." signature`, both
 * base64url, the signature an HMAC-SHA256, 512 characters at most); undefined otherwise. It says
 * nothing about who signed it: `Cursors.decode` checks that.
 */
export function cursorParts(cursor: string): { payload: string; signature: string } | undefined {
  const dot = cursor.indexOf('.');
  if (cursor.length > MAX_CURSOR_LENGTH || dot <= 0) return undefined;
  const payload = cursor.slice(0, dot);
  const signature = cursor.slice(dot + 1);
  return BASE64URL.test(payload) && SIGNATURE.test(signature) ? { payload, signature } : undefined;
}

/**
 * The position a cursor's payload holds when it is a JSON array of exactly one value per declared
 * field, each of its field's type and range; undefined otherwise.
 */
export function positionIn<const K extends readonly CursorField[]>(payload: string, fields: K): CursorPosition<K> | undefined {
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const valid = Array.isArray(position)
    && position.length === fields.length
    && position.every((v, i) => FIELD_CHECKS[fields[i]!](v));
  return valid ? (position as CursorPosition<K>) : undefined;
}

function canonicalScope(scope: CursorScope): string {
  // Sorted keys, absent and undefined filters alike, so {q: undefined} and {} bind the same list.
  const filters = Object.keys(scope.filters)
    .filter((k) => scope.filters[k] !== undefined && scope.filters[k] !== null)
    .sort()
    .map((k) => [k, scope.filters[k]]);
  return JSON.stringify([VERSION, scope.list, scope.workspaceId, filters]);
}

const INVALID = {
  in: 'query',
  name: 'cursor',
  message: 'is not a cursor of this list: pass `next_cursor` unchanged, with the same filters, or omit it',
} as const;

/**
 * Writes and reads the cursors of every list. A cursor is `base64url(JSON position) "."
 * base64url(HMAC-SHA256(secret, scope, payload))`: the signature is keyed with the service's
 * cursor secret (the same on every instance), so only the service can make one, and it covers the
 * scope, which is never written into the cursor, so a cursor of another list, other filters or
 * another workspace fails exactly like an altered one.
 */
export class Cursors {
  readonly #secret: Buffer;

  constructor(secret: string) {
    if (secret.length < MIN_CURSOR_SECRET_LENGTH) throw new Error(`a cursor secret has at least ${MIN_CURSOR_SECRET_LENGTH} characters`);
    this.#secret = Buffer.from(secret, 'utf8');
  }

  #signature(scope: CursorScope, payload: string): Buffer {
    return createHmac('sha256', this.#secret).update(canonicalScope(scope)).update('\n').update(payload).digest();
  }

  /** The cursor pointing after `position` (the sort keys of the last item of a page) in `scope`. */
  encode(scope: CursorScope, position: readonly CursorValue[]): string {
    const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${payload}.${this.#signature(scope, payload).toString('base64url')}`;
  }

  /**
   * The position a cursor carries, when this service signed it for this scope and each sort key
   * is of the declared field (type and range). Anything else is a 422 naming `cursor`.
   */
  decode<const K extends readonly CursorField[]>(scope: CursorScope, cursor: string, fields: K): CursorPosition<K> {
    const parts = cursorParts(cursor);
    if (parts === undefined) throw ServiceError.invalid(INVALID);
    // Compared as text: base64url decoding ignores stray characters, so two texts could give the same bytes.
    const given = Buffer.from(parts.signature);
    const expected = Buffer.from(this.#signature(scope, parts.payload).toString('base64url'));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw ServiceError.invalid(INVALID);
    const position = positionIn(parts.payload, fields);
    if (position === undefined) throw ServiceError.invalid(INVALID);
    return position;
  }

  /**
   * Cuts the `limit + 1` rows a list fetched into one page: when the extra row exists there is a
   * next page, whose cursor points after the last row kept.
   */
  takePage<Row>(
    rows: readonly Row[],
    limit: number,
    scope: CursorScope,
    keysOf: (row: Row) => readonly CursorValue[],
  ): { rows: Row[]; next_cursor: string | null } {
    if (rows.length <= limit) return { rows: [...rows], next_cursor: null };
    const kept = rows.slice(0, limit);
    return { rows: kept, next_cursor: this.encode(scope, keysOf(kept[kept.length - 1]!)) };
  }
}
