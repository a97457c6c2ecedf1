import type { CreatedPosition, RecordPage } from '../interfaces/list-pages.js';
import type { PostgresPool } from './pool.js';
import { rows } from './query.js';

/**
 * The two statements of a list in (created time, id) order (or any (text key, id) order `createdAt`
 * names), as SQLite's `prepareCreatedOrderList` (`../sqlite/keyset.ts`) writes them: the first
 * page, and the page after a position. `where` takes named parameters; absent filters are passed
 * as NULL. The row-value comparison is a range condition on an index ending in (created_at, id),
 * so PostgreSQL seeks it as SQLite does; both compare text by code point (`COLLATE "C"`).
 */
export function createdOrderList(pool: PostgresPool, sql: { select: string; where: string; createdAt: string; id: string }) {
  const order = `ORDER BY ${sql.createdAt}, ${sql.id} LIMIT @limit`;
  const first = `${sql.select} WHERE ${sql.where} ${order}`;
  const after = `${sql.select} WHERE ${sql.where} AND (${sql.createdAt}, ${sql.id}) > (@after_created_at, @after_id) ${order}`;
  return <Row>(params: Record<string, unknown>, limit: number, position?: CreatedPosition): Promise<Row[]> => {
    if (position === undefined) return rows<Row>(pool, first, { ...params, limit });
    return rows<Row>(pool, after, { ...params, limit, after_created_at: position[0], after_id: position[1] });
  };
}

/**
 * The statements of a list of imported records, in (created time, id) or (updated time, id) order,
 * optionally only records updated after an instant, as SQLite's `prepareRecordList`. Stored
 * timestamps are UTC with milliseconds, so text order is time order. A parameter that may be NULL
 * is cast where it is first tested: PostgreSQL cannot tell the type of a bare `$n IS NULL`.
 */
export function recordList(pool: PostgresPool, sql: { select: string; where: string; createdAt: string; updatedAt: string; id: string }) {
  const where = `${sql.where} AND (@updated_after::text IS NULL OR ${sql.updatedAt} > @updated_after)`;
  const orders = {
    created_at: createdOrderList(pool, { ...sql, where, createdAt: sql.createdAt }),
    updated_at: createdOrderList(pool, { ...sql, where, createdAt: sql.updatedAt }),
  };
  return <Row>(params: Record<string, unknown>, page: RecordPage): Promise<Row[]> =>
    orders[page.order]<Row>({ ...params, updated_after: page.updatedAfter }, page.limit, page.after);
}
