import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Cursors, type CursorField, type CursorScope } from '../../../src/pagination/cursor.js';
import { ServiceError } from '../../../src/errors/service-error.js';

const SECRET = 'a-test-secret-of-thirty-two-characters';
const cursors = new Cursors(SECRET);
const scope: CursorScope = { list: 'listThings', workspaceId: 'w1', filters: { status: 'ACTIVE', q: undefined } };
const NOW = '2026-01-01T00:00:00.000Z';

function rejection(run: () => unknown): ServiceError {
  try {
    run();
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

/** A cursor signed with the right secret around any payload: what only the service could make. */
function signed(position: unknown, secret = SECRET): string {
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  const canonical = JSON.stringify(['v2', scope.list, scope.workspaceId, [['status', 'ACTIVE']]]);
  return `${payload}.${createHmac('sha256', secret).update(canonical).update('\n').update(payload).digest('base64url')}`;
}

describe('cursor codec', () => {
  it('round-trips a position within the same scope', () => {
    const cursor = cursors.encode(scope, [NOW, 'id-1']);
    expect(cursors.decode(scope, cursor, ['timestamp', 'text'])).toEqual([NOW, 'id-1']);
  });

  it('ignores filters that are absent, whatever their key order', () => {
    const cursor = cursors.encode(scope, [1, 'a']);
    const same: CursorScope = { list: 'listThings', workspaceId: 'w1', filters: { category_id: undefined, status: 'ACTIVE' } };
    expect(cursors.decode(same, cursor, ['integer', 'text'])).toEqual([1, 'a']);
  });

  it.each([
    ['another workspace', { ...scope, workspaceId: 'w2' }],
    ['another filter value', { ...scope, filters: { status: 'PENDING' } }],
    ['an added filter', { ...scope, filters: { status: 'ACTIVE', q: 'x' } }],
    ['another list', { ...scope, list: 'listOthers' }],
  ])('refuses a cursor used with %s, with a 422 naming the cursor', (_what, other) => {
    const err = rejection(() => cursors.decode(other, cursors.encode(scope, ['a', 'b']), ['text', 'text']));
    expect([err.status, err.code]).toEqual([422, 4220]);
    expect(err.message).toContain('query.cursor');
  });

  it('refuses an altered payload, signature or shape', () => {
    const cursor = cursors.encode(scope, ['a', 'b']);
    const [payload, sum] = cursor.split('.') as [string, string];
    const forgedPayload = Buffer.from(JSON.stringify(['a', 'c'])).toString('base64url');
    for (const bad of [`${forgedPayload}.${sum}`, `${payload}.${sum.slice(1)}x`, payload, `.${sum}`, 'x'.repeat(600), `${payload}.${sum}.`, `${payload}.${sum}=`]) {
      expect(rejection(() => cursors.decode(scope, bad, ['text', 'text'])).status).toBe(422);
    }
    expect(rejection(() => cursors.decode(scope, cursor, ['text', 'integer'])).status).toBe(422);
    expect(rejection(() => cursors.decode(scope, cursor, ['text'])).status).toBe(422);
  });

  it('refuses a cursor signed with another secret, and one checksummed without a key as cursors were before', () => {
    expect(rejection(() => cursors.decode(scope, new Cursors(`${SECRET}!`).encode(scope, ['a', 'b']), ['text', 'text'])).status).toBe(422);
    const payload = Buffer.from(JSON.stringify(['a', 'b'])).toString('base64url');
    const canonical = JSON.stringify(['v1', scope.list, scope.workspaceId, [['status', 'ACTIVE']]]);
    const unkeyed = `${payload}.${createHash('sha256').update(canonical).update('\n').update(payload).digest().subarray(0, 12).toString('base64url')}`;
    expect(rejection(() => cursors.decode(scope, unkeyed, ['text', 'text'])).status).toBe(422);
  });

  it('refuses a secret shorter than 32 characters', () => {
    expect(() => new Cursors('short')).toThrow(/32 characters/);
  });

  // Even a correctly signed cursor is checked field by field before any query sees it.
  it.each<[string, CursorField, unknown]>([
    ['a fractional integer', 'integer', 1.5],
    ['an integer past 2^53', 'integer', 2 ** 60],
    ['a negative integer', 'integer', -1],
    ['an integer written as text', 'integer', '5'],
    ['a day past 9999-12-31', 'day', 2_932_897],
    ['an instant past 9999', 'instant', 253_402_300_800_000],
    ['text holding NUL', 'text', 'a\u0000b'],
    ['text with half a surrogate pair', 'text', 'a\uD800'],
    ['empty text', 'text', ''],
    ['a timestamp that is not a date', 'timestamp', '2026-02-30T00:00:00.000Z'],
    ['a timestamp holding NUL', 'timestamp', `${NOW}\u0000`],
    ['a timestamp without a zone', 'timestamp', '2026-01-01T00:00:00'],
  ])('refuses a signed cursor holding %s', (_what, field, value) => {
    expect(rejection(() => cursors.decode(scope, signed([value]), [field])).status).toBe(422);
  });

  it.each<[CursorField, unknown]>([
    ['integer', Number.MAX_SAFE_INTEGER],
    ['integer', 0],
    ['day', 2_932_896],
    ['instant', 253_402_300_799_999],
    ['text', 'https://example.com/a?b=c'],
    ['timestamp', '2026-06-30T23:59:59.999Z'],
  ])('accepts a signed %s at the edge of its range (%s)', (field, value) => {
    expect(cursors.decode(scope, signed([value]), [field])).toEqual([value]);
  });
});

describe('takePage', () => {
  it('keeps limit rows and points the next cursor after the last one kept', () => {
    const page = cursors.takePage([{ k: 1 }, { k: 2 }, { k: 3 }], 2, scope, (r) => [r.k]);
    expect(page.rows).toEqual([{ k: 1 }, { k: 2 }]);
    expect(cursors.decode(scope, page.next_cursor!, ['integer'])).toEqual([2]);
  });

  it('on the last page, answers a null cursor', () => {
    expect(cursors.takePage([{ k: 1 }], 2, scope, (r) => [r.k])).toEqual({ rows: [{ k: 1 }], next_cursor: null });
  });
});
