import { expect } from 'vitest';
import type { RequestSpec } from '../scenarios/types.js';
import type { ObservedResponse } from './spec.js';
import { expectFieldNamed } from './field-errors.js';

interface ListPage {
  items: unknown[];
  next_cursor: string | null;
  /** Event feeds only: their `next_cursor` is never null, and this says whether a next page is waiting. */
  has_more?: boolean;
}

export interface PagingCheck {
  /** Sends one request (and checks it against the contract). */
  call: (spec: RequestSpec) => Promise<ObservedResponse>;
  /** The list request of the workspace under test, without limit and cursor. */
  request: RequestSpec;
  /** Ids seeded into that workspace: each must come back exactly once. */
  ids: string[];
  itemId?: (item: unknown) => string;
  /** The same list in another workspace (at least two items): its cursors must be refused. */
  foreign?: RequestSpec;
}

const defaultItemId = (item: unknown): string => String((item as { id: unknown }).id);

function page(res: ObservedResponse): ListPage {
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  return (res.body as { data: ListPage }).data;
}

/** Walks the whole list `limit` at a time; returns the ids in the order served. */
export async function walkList(check: PagingCheck, limit: number): Promise<string[]> {
  const itemId = check.itemId ?? defaultItemId;
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; ; pages++) {
    expect(pages, `paging with limit ${limit} does not end`).toBeLessThan(check.ids.length + 10);
    const query: Record<string, string | number | boolean> = { ...check.request.query, limit };
    if (cursor !== null) query.cursor = cursor;
    const current = page(await check.call({ ...check.request, query }));
    expect(current.items.length).toBeLessThanOrEqual(limit);
    seen.push(...current.items.map(itemId));
    if (current.has_more !== undefined) expect(current.next_cursor, 'a feed always gives a cursor to resume from').not.toBeNull();
    if (current.next_cursor === null || current.has_more === false) return seen;
    // A full page is the only kind that may promise more.
    expect(current.items.length).toBe(limit);
    cursor = current.next_cursor;
  }
}

function tamper(cursor: string): string[] {
  const middle = Math.floor(cursor.length / 2);
  const flipped = cursor[middle] === 'A' ? 'B' : 'A';
  return [
    `${cursor.slice(0, middle)}${flipped}${cursor.slice(middle + 1)}`,
    cursor.slice(0, -2),
    `${cursor}A`,
    'not-a-cursor',
  ];
}

async function expectRefusedCursor(check: PagingCheck, cursor: string, why: string): Promise<void> {
  const res = await check.call({ ...check.request, query: { ...check.request.query, limit: 1, cursor } });
  expect([res.status, (res.body as { code?: number } | undefined)?.code], `${why}: ${res.text.slice(0, 300)}`).toEqual([422, 4220]);
  expectFieldNamed(res, /^query\.cursor$/);
}

/**
 * The paging promise of every list (the paging rules of docs/client-teams.md and `openapi/components/parameters/`): with limit 1, 2 and 3 every item comes back
 * exactly once, in one stable order (the same as a single big page); a tampered or foreign
 * cursor is a 422 naming `cursor`.
 */
export async function expectStablePaging(check: PagingCheck): Promise<void> {
  const reference = await walkList(check, 100);
  expect(new Set(reference).size, 'an item is listed twice').toBe(reference.length);
  expect(reference).toEqual(expect.arrayContaining(check.ids));
  for (const limit of [1, 2, 3]) expect(await walkList(check, limit), `limit ${limit}`).toEqual(reference);

  const first = page(await check.call({ ...check.request, query: { ...check.request.query, limit: 1 } }));
  expect(first.next_cursor, 'seed at least two items so a cursor exists').not.toBeNull();
  for (const bad of tamper(first.next_cursor!)) await expectRefusedCursor(check, bad, `tampered cursor ${bad}`);

  if (check.foreign) {
    const foreign = page(await check.call({ ...check.foreign, query: { ...check.foreign.query, limit: 1 } }));
    expect(foreign.next_cursor, 'seed at least two foreign items so a cursor exists').not.toBeNull();
    await expectRefusedCursor(check, foreign.next_cursor!, 'cursor of another workspace');
  }
}
