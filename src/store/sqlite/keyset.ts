import type { Db } from './database.js';
import type { CreatedPosition, RecordPage } from '../interfaces/list-pages.js';
import { createdOrderSql, pageParams, recordListOrders, recordPageParams, type CreatedOrderListSql, type RecordListSql } from '../record-list-sql.js';

/**
 * The two statements of a list in (created time, id) order (or any (text key, id) order `createdAt`
 * names): the first page, and the page after a position (`../record-list-sql.ts`). The row-value
 * comparison lets SQLite seek an index ending in (created_at, id).
 */
export function prepareCreatedOrderList(db: Db, sql: CreatedOrderListSql) {
  const text = createdOrderSql(sql);
  const first = db.prepare(text.first);
  const after = db.prepare(text.after);
  return <Row>(params: Record<string, unknown>, limit: number, position?: CreatedPosition): Row[] =>
    (position === undefined ? first : after).all(pageParams(params, limit, position)) as Row[];
}

/**
 * The statements of a list of imported records, in (created time, id) or (updated time, id) order,
 * optionally only records updated after an instant. Both orders use the same filters; each seeks an
 * index ending in its (time, id).
 */
export function prepareRecordList(db: Db, sql: RecordListSql) {
  const orders = recordListOrders(sql, (text) => prepareCreatedOrderList(db, text));
  return <Row>(params: Record<string, unknown>, page: RecordPage): Row[] =>
    orders[page.order]<Row>(recordPageParams(params, page), page.limit, page.after);
}
