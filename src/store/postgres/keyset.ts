import type { CreatedPosition, RecordPage } from '../interfaces/list-pages.js';
import { createdOrderSql, pageParams, recordListOrders, recordPageParams, type CreatedOrderListSql, type RecordListSql } from '../record-list-sql.js';
import { rows, type Queryable } from './query.js';

/**
 * PostgreSQL's twin of SQLite's `prepareCreatedOrderList` (`../sqlite/keyset.ts`), with the same SQL
 * (`../record-list-sql.ts`): the first page of a list in (created time, id) order (or any (text
 * key, id) order `createdAt` names), or the page after a position. The row-value comparison lets
 * PostgreSQL seek an index ending in (created_at, id); with every text column collated "C", the
 * order is SQLite's.
 */
export function prepareCreatedOrderList(db: Queryable, sql: CreatedOrderListSql) {
  const text = createdOrderSql(sql);
  return <Row>(params: Record<string, unknown>, limit: number, position?: CreatedPosition): Promise<Row[]> =>
    rows<Row>(db, position === undefined ? text.first : text.after, pageParams(params, limit, position));
}

/** PostgreSQL's twin of SQLite's `prepareRecordList`: a list of imported records in (created time, id) or (updated time, id) order, optionally only records updated after an instant. */
export function prepareRecordList(db: Queryable, sql: RecordListSql) {
  const orders = recordListOrders(sql, (text) => prepareCreatedOrderList(db, text));
  return <Row>(params: Record<string, unknown>, page: RecordPage): Promise<Row[]> =>
    orders[page.order]<Row>(recordPageParams(params, page), page.limit, page.after);
}

/** A store's list method over a record list: its filters as the list's parameters, each row as `view` shows it. */
export function recordListMethod<Filters, Row, Item>(
  db: Queryable,
  sql: RecordListSql,
  params: (filters: Filters) => Record<string, unknown>,
  view: (row: Row) => Item,
) {
  const list = prepareRecordList(db, sql);
  return async (filters: Filters, page: RecordPage): Promise<Item[]> => (await list<Row>(params(filters), page)).map(view);
}
