import type { CreatedPosition, RecordPage } from '../interfaces/list-pages.js';
import { createdOrderSql, pageParams, recordListOrders, recordPageParams, type CreatedOrderListSql, type RecordListSql } from '../record-list-sql.js';
import type { PostgresPool } from './pool.js';
import { rows, type Queryable } from './query.js';

/**
 * A list in (created time, id) order (or any (text key, id) order `createdAt` names), the same SQL
 * as SQLite's (`../record-list-sql.ts`): the first page, or the page after a position. Text columns
 * are `COLLATE "C"`, so the order is SQLite's code-point order.
 */
export function postgresCreatedOrderList(sql: CreatedOrderListSql) {
  const text = createdOrderSql(sql);
  return <Row>(on: Queryable, params: Record<string, unknown>, limit: number, position?: CreatedPosition): Promise<Row[]> =>
    rows<Row>(on, position === undefined ? text.first : text.after, pageParams(params, limit, position));
}

/** A list of imported records in (created time, id) or (updated time, id) order, optionally only records updated after an instant. */
export function postgresRecordList(sql: RecordListSql) {
  const orders = recordListOrders(sql, postgresCreatedOrderList);
  return <Row>(on: Queryable, params: Record<string, unknown>, page: RecordPage): Promise<Row[]> =>
    orders[page.order]<Row>(on, recordPageParams(params, page), page.limit, page.after);
}

/** A store's list method over a record list: its filters as the list's parameters, each row as `view` shows it. */
export function postgresListMethod<Filters, Row, Item>(
  pool: PostgresPool,
  sql: RecordListSql,
  params: (filters: Filters) => Record<string, unknown>,
  view: (row: Row) => Item,
) {
  const list = postgresRecordList(sql);
  return async (filters: Filters, page: RecordPage): Promise<Item[]> => (await list<Row>(pool, params(filters), page)).map(view);
}
