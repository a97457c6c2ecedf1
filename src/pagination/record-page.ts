import type { Cursors, CursorScope } from './cursor.js';
import { ServiceError } from '../errors/service-error.js';
import { parseTimestamp } from '../store/timestamp.js';
import type { RecordOrder, RecordPage } from '../store/interfaces/list-pages.js';

/**
 * The paging and sync parameters every list of imported records takes besides its filters; `limit`
 * and `order` as the contract defaults them (the service fills them in when a request leaves them out).
 */
export interface RecordListQuery {
  limit: number;
  cursor?: string | undefined;
  order: RecordOrder;
  updated_after?: string | undefined;
}

const PAGING: ReadonlySet<string> = new Set(['limit', 'cursor', 'order', 'updated_after'] satisfies Array<keyof RecordListQuery>);

/** `updated_after` as stored timestamps are written (UTC, milliseconds), so it compares as text; a 422 naming it otherwise. */
export function storedInstant(text: string): string {
  const ms = parseTimestamp(text);
  if (ms === undefined) throw ServiceError.invalid({ in: 'query', name: 'updated_after', message: 'must be an RFC 3339 date-time with a time zone, e.g. 2026-11-20T09:00:00Z' });
  return new Date(ms).toISOString();
}

/**
 * One page of a list of imported records, in creation or update order (`order`), optionally only
 * records updated after `updated_after`. Both take part in the cursor's scope, so a cursor is
 * refused (422) with another order or bound; `times` reads an item's creation and update times,
 * whatever the record names them.
 */
export async function readRecordPage<Item extends { id: string }>(
  cursors: Cursors,
  scope: CursorScope,
  query: RecordListQuery,
  fetch: (page: RecordPage) => Promise<Item[]>,
  times: (item: NoInfer<Item>) => { created: string; updated: string },
): Promise<{ items: Item[]; next_cursor: string | null }> {
  const { order } = query;
  const updatedAfter = query.updated_after === undefined ? null : storedInstant(query.updated_after);
  // The default order stays out of the scope, so cursors issued before lists had an order still work.
  const bound: CursorScope = { ...scope, filters: { ...scope.filters, order: order === 'created_at' ? undefined : order, updated_after: updatedAfter } };
  const { limit } = query;
  const after = query.cursor === undefined ? undefined : cursors.decode(bound, query.cursor, ['timestamp', 'text']);
  const rows = await fetch({ order, updatedAfter, after, limit: limit + 1 });
  const page = cursors.takePage(rows, limit, bound, (item) => {
    const { created, updated } = times(item);
    return [order === 'created_at' ? created : updated, item.id];
  });
  return { items: page.rows, next_cursor: page.next_cursor };
}

/** The times of records that name them as the webhook events do (`createdAt`, `updatedAt`). */
export const camelCaseTimes = (item: { createdAt: string; updatedAt: string }) => ({ created: item.createdAt, updated: item.updatedAt });

/** The times of records that name them `created_at` and `updated_at`. */
export const snakeCaseTimes = (item: { created_at: string; updated_at: string }) => ({ created: item.created_at, updated: item.updated_at });

/** What a list operation's handler has that its page needs: its operation, its caller, the cursors and its query. */
export interface RecordListRequest {
  operationId: string;
  caller: { principal: { workspace_id: string } };
  cursors: Cursors;
  query: RecordListQuery & object;
}

/**
 * One page of a list operation of imported records, its cursor bound to the operation and to every
 * filter of its query (each query parameter but the paging ones): the handler names its filters
 * once, where it calls the store.
 */
export function readRecordList<Item extends { id: string }>(
  { operationId, caller, cursors, query }: RecordListRequest,
  fetch: (page: RecordPage) => Promise<Item[]>,
  times: (item: NoInfer<Item>) => { created: string; updated: string },
): Promise<{ items: Item[]; next_cursor: string | null }> {
  const filters = Object.fromEntries(Object.entries(query).filter(([name]) => !PAGING.has(name))) as CursorScope['filters'];
  return readRecordPage(cursors, { list: operationId, workspaceId: caller.principal.workspace_id, filters }, query, fetch, times);
}
