import { createHash } from 'node:crypto';
import { ServiceError } from '../errors/service-error.js';

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

const VERSION = 'v1';
const CHECKSUM_BYTES = 12;
const MAX_CURSOR_LENGTH = 512;

function canonicalScope(scope: CursorScope): string {
  // Sorted keys, absent and undefined filters alike, so {q: undefined} and {} bind the same list.
  const filters = Object.keys(scope.filters)
    .filter((k) => scope.filters[k] !== undefined && scope.filters[k] !== null)
    .sort()
    .map((k) => [k, scope.filters[k]]);
  return JSON.stringify([VERSION, scope.list, scope.workspaceId, filters]);
}

// The checksum covers the scope, which is never written into the cursor: a cursor from another
// list, other filters or another workspace fails the check exactly like an altered one. It is an
// integrity check, not a secret: every query is scoped to the key's workspace anyway, so a forged
// cursor could only point somewhere in the caller's own list.
function checksum(scope: CursorScope, payload: string): string {
  return createHash('sha256').update(canonicalScope(scope)).update('\n').update(payload).digest().subarray(0, CHECKSUM_BYTES).toString('base64url');
}

/** The cursor pointing after `position` (the sort keys of the last item of a page) in `scope`. */
export function encodeCursor(scope: CursorScope, position: readonly CursorValue[]): string {
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${payload}.${checksum(scope, payload)}`;
}

const INVALID = {
  in: 'query',
  name: 'cursor',
  message: 'is not a cursor of this list: pass `next_cursor` unchanged, with the same filters, or omit it',
} as const;

/**
 * The position a cursor carries, checked against the scope of this request and the expected kind
 * of each sort key. Anything else is a 422 naming `cursor`.
 */
export function decodeCursor<const K extends readonly ('string' | 'number')[]>(
  scope: CursorScope,
  cursor: string,
  kinds: K,
): { [I in keyof K]: K[I] extends 'string' ? string : number } {
  const dot = cursor.indexOf('.');
  if (cursor.length > MAX_CURSOR_LENGTH || dot <= 0) throw ServiceError.invalid(INVALID);
  const payload = cursor.slice(0, dot);
  const expected = checksum(scope, payload);
  if (cursor.slice(dot + 1) !== expected) throw ServiceError.invalid(INVALID);
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw ServiceError.invalid(INVALID);
  }
  const valid = Array.isArray(position)
    && position.length === kinds.length
    && position.every((v, i) => typeof v === kinds[i] && (typeof v !== 'number' || Number.isFinite(v)));
  if (!valid) throw ServiceError.invalid(INVALID);
  return position as { [I in keyof K]: K[I] extends 'string' ? string : number };
}

/**
 * Cuts the `limit + 1` rows a list fetched into one page: when the extra row exists there is a
 * next page, whose cursor points after the last row kept.
 */
export function takePage<Row>(
  rows: readonly Row[],
  limit: number,
  scope: CursorScope,
  keysOf: (row: Row) => readonly CursorValue[],
): { rows: Row[]; next_cursor: string | null } {
  if (rows.length <= limit) return { rows: [...rows], next_cursor: null };
  const kept = rows.slice(0, limit);
  return { rows: kept, next_cursor: encodeCursor(scope, keysOf(kept[kept.length - 1]!)) };
}
