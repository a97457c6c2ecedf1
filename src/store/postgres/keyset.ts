import type { CreatedPosition, RecordPage } from '../interfaces/list-pages.js';
import { rows, type Queryable } from './query.js';

/**
 * PostgreSQL's twin of `prepareCreatedOrderList` (`../sqlite/keyset.ts`): the first page of a list in
 * (created time, id) order (or any (text key, id) order `createdAt` names), or the page after a
 * position. `where` takes named parameters; absent filters are passed as NULL. The row-value
 * comparison lets PostgreSQL seek an index ending in (created_at, id); with every text column
 * collated "C", the order is SQLite's.
 */
export function prepareCreatedOrderList(db: Queryable, sql: { select: string; where: string; createdAt: string; id: string }) {
  const order = `ORDER BY ${sql.createdAt}, ${sql.id} LIMIT @limit`;
  const first = `${sql.select} WHERE ${sql.where} ${order}`;
  const after = `${sql.select} WHERE ${sql.where} AND (${sql.createdAt}, ${sql.id}) > (@after_created_at, @after_id) ${order}`;
  return async <Row>(params: Record<string, unknown>, limit: number, position?: CreatedPosition): Promise<Row[]> => {
    if (position === undefined) return rows<Row>(db, first, { ...params, limit });
    return rows<Row>(db, after, { ...params, limit, after_created_at: position[0], after_id: position[1] });
  };
}

/**
 * PostgreSQL's twin of `prepareRecordList` (`../sqlite/keyset.ts`): a list of imported records in
 * (created time, id) or (updated time, id) order, optionally only records updated after an
 * instant. The bound is cast to text where it is tested for NULL: PostgreSQL must know a
 * parameter's type from its first use, and `IS NULL` alone does not say.
 */
export function prepareRecordList(db: Queryable, sql: { select: string; where: string; createdAt: string; updatedAt: string; id: string }) {
  const where = `${sql.where} AND (CAST(@updated_after AS TEXT) IS NULL OR ${sql.updatedAt} > @updated_after)`;
  const orders = {
    created_at: prepareCreatedOrderList(db, { ...sql, where, createdAt: sql.createdAt }),
    updated_at: prepareCreatedOrderList(db, { ...sql, where, createdAt: sql.updatedAt }),
  };
  return <Row>(params: Record<string, unknown>, page: RecordPage): Promise<Row[]> =>
    orders[page.order]<Row>({ ...params, updated_after: page.updatedAfter }, page.limit, page.after);
}
