import type { Db } from './database.js';
import type { CreatedPosition, RecordPage } from '../interfaces/list-pages.js';

/**
 * The two statements of a list in (created time, id) order (or any (text key, id) order `createdAt`
 * names): the first page, and the page after a
 * position. `where` takes named parameters; absent filters are passed as NULL so one pair of
 * statements serves every combination. The row-value comparison lets SQLite seek an index ending
 * in (created_at, id).
 */
export function prepareCreatedOrderList(db: Db, sql: { select: string; where: string; createdAt: string; id: string }) {
  const order = `ORDER BY ${sql.createdAt}, ${sql.id} LIMIT @limit`;
  const first = db.prepare(`${sql.select} WHERE ${sql.where} ${order}`);
  const after = db.prepare(`${sql.select} WHERE ${sql.where} AND (${sql.createdAt}, ${sql.id}) > (@after_created_at, @after_id) ${order}`);
  return <Row>(params: Record<string, unknown>, limit: number, position?: CreatedPosition): Row[] => {
    if (position === undefined) return first.all({ ...params, limit }) as Row[];
    return after.all({ ...params, limit, after_created_at: position[0], after_id: position[1] }) as Row[];
  };
}

/**
 * The statements of a list of imported records, in (created time, id) or (updated time, id) order,
 * optionally only records updated after an instant. Both orders use the same filters; each seeks an
 * index ending in its (time, id). Stored timestamps are UTC with milliseconds, so text order is time
 * order.
 */
export function prepareRecordList(db: Db, sql: { select: string; where: string; createdAt: string; updatedAt: string; id: string }) {
  const where = `${sql.where} AND (@updated_after IS NULL OR ${sql.updatedAt} > @updated_after)`;
  const orders = {
    created_at: prepareCreatedOrderList(db, { ...sql, where, createdAt: sql.createdAt }),
    updated_at: prepareCreatedOrderList(db, { ...sql, where, createdAt: sql.updatedAt }),
  };
  return <Row>(params: Record<string, unknown>, page: RecordPage): Row[] =>
    orders[page.order]<Row>({ ...params, updated_after: page.updatedAfter }, page.limit, page.after);
}
