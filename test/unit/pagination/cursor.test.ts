import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, takePage, type CursorScope } from '../../../src/pagination/cursor.js';
import { ServiceError } from '../../../src/errors/service-error.js';

const scope: CursorScope = { list: 'listThings', workspaceId: 'w1', filters: { status: 'ACTIVE', q: undefined } };

function rejection(run: () => unknown): ServiceError {
  try {
    run();
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

describe('cursor codec', () => {
  it('round-trips a position within the same scope', () => {
    const cursor = encodeCursor(scope, ['2026-01-01T00:00:00.000Z', 'id-1']);
    expect(decodeCursor(scope, cursor, ['string', 'string'])).toEqual(['2026-01-01T00:00:00.000Z', 'id-1']);
  });

  it('ignores filters that are absent, whatever their key order', () => {
    const cursor = encodeCursor(scope, [1, 'a']);
    const same: CursorScope = { list: 'listThings', workspaceId: 'w1', filters: { category_id: undefined, status: 'ACTIVE' } };
    expect(decodeCursor(same, cursor, ['number', 'string'])).toEqual([1, 'a']);
  });

  it.each([
    ['another workspace', { ...scope, workspaceId: 'w2' }],
    ['another filter value', { ...scope, filters: { status: 'PENDING' } }],
    ['an added filter', { ...scope, filters: { status: 'ACTIVE', q: 'x' } }],
    ['another list', { ...scope, list: 'listOthers' }],
  ])('refuses a cursor used with %s, with a 422 naming the cursor', (_what, other) => {
    const err = rejection(() => decodeCursor(other as CursorScope, encodeCursor(scope, ['a', 'b']), ['string', 'string']));
    expect([err.status, err.code]).toEqual([422, 4220]);
    expect(err.message).toContain('query.cursor');
  });

  it('refuses an altered payload, checksum or shape', () => {
    const cursor = encodeCursor(scope, ['a', 'b']);
    const [payload, sum] = cursor.split('.') as [string, string];
    const forgedPayload = Buffer.from(JSON.stringify(['a', 'c'])).toString('base64url');
    for (const bad of [`${forgedPayload}.${sum}`, `${payload}.${sum.slice(1)}x`, payload, `.${sum}`, 'x'.repeat(600), `${payload}.${sum}.`]) {
      expect(rejection(() => decodeCursor(scope, bad, ['string', 'string'])).status).toBe(422);
    }
    expect(rejection(() => decodeCursor(scope, cursor, ['string', 'number'])).status).toBe(422);
    expect(rejection(() => decodeCursor(scope, cursor, ['string'])).status).toBe(422);
  });
});

describe('takePage', () => {
  it('keeps limit rows and points the next cursor after the last one kept', () => {
    const page = takePage([{ k: 1 }, { k: 2 }, { k: 3 }], 2, scope, (r) => [r.k]);
    expect(page.rows).toEqual([{ k: 1 }, { k: 2 }]);
    expect(decodeCursor(scope, page.next_cursor!, ['number'])).toEqual([2]);
  });

  it('on the last page, answers a null cursor', () => {
    expect(takePage([{ k: 1 }], 2, scope, (r) => [r.k])).toEqual({ rows: [{ k: 1 }], next_cursor: null });
  });
});
