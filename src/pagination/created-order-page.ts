import type { Cursors, CursorScope } from './cursor.js';
import type { CreatedPosition } from '../store/interfaces/list-pages.js';

/**
 * One page of a list ordered by (created time, id): decodes `cursor` against the list's scope (a
 * cursor of another list, other filters or another workspace is a 422), fetches one row more than
 * `limit` to know whether a next page exists, and encodes `next_cursor` from the last item kept.
 */
export async function readCreatedOrderPage<Item>(
  cursors: Cursors,
  scope: CursorScope,
  page: { limit: number; cursor?: string | undefined },
  fetch: (limit: number, after?: CreatedPosition) => Promise<Item[]>,
  keysOf: (item: Item) => CreatedPosition,
): Promise<{ items: Item[]; next_cursor: string | null }> {
  const { limit } = page;
  const after = page.cursor === undefined ? undefined : cursors.decode(scope, page.cursor, ['timestamp', 'text']);
  const { rows, next_cursor } = cursors.takePage(await fetch(limit + 1, after), limit, scope, keysOf);
  return { items: rows, next_cursor };
}
