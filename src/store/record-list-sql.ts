// The SQL of keyset-paged lists, the same text in every database: a first page, and the page after
// a position, each ordered by a text key then the id. Absent filters are bound as NULL so one pair
// of statements serves every combination of filters (`filterIfGiven`).
import type { CreatedPosition, RecordOrder, RecordPage } from './interfaces/list-pages.js';

/**
 * The condition of an optional filter on a text column, its parameter named as the column
 * (`a.status` takes `@status`): the column equals it, or it is NULL (the filter is absent). The cast
 * is there because PostgreSQL cannot tell the type of a parameter that is only tested for NULL;
 * SQLite reads it as a no-op on text and NULL.
 */
export function filterIfGiven(column: string): string {
  const param = `@${column.slice(column.indexOf('.') + 1)}`;
  return `(CAST(${param} AS TEXT) IS NULL OR ${column} = ${param})`;
}

/** A list in (key, id) order: `where` takes named parameters; `createdAt` names the key column. */
export interface CreatedOrderListSql {
  select: string;
  where: string;
  createdAt: string;
  id: string;
}

/** A list of imported records, in (created time, id) or (updated time, id) order. */
export interface RecordListSql {
  select: string;
  where: string;
  createdAt: string;
  updatedAt: string;
  id: string;
}

/**
 * The first page (`@limit`) and the page after a position (`@after_created_at`, `@after_id`). The
 * row-value comparison lets the database seek an index ending in (key, id).
 */
export function createdOrderSql(sql: CreatedOrderListSql): { first: string; after: string } {
  const order = `ORDER BY ${sql.createdAt}, ${sql.id} LIMIT @limit`;
  return {
    first: `${sql.select} WHERE ${sql.where} ${order}`,
    after: `${sql.select} WHERE ${sql.where} AND (${sql.createdAt}, ${sql.id}) > (@after_created_at, @after_id) ${order}`,
  };
}

/**
 * Both orders of a record list, each as `list` makes it from its SQL, with the `@updated_after`
 * filter (records updated strictly after a stored timestamp, or all when NULL). Stored timestamps
 * are UTC with milliseconds, so text order is time order.
 */
export function recordListOrders<L>(sql: RecordListSql, list: (sql: CreatedOrderListSql) => L): Record<RecordOrder, L> {
  const where = `${sql.where} AND (CAST(@updated_after AS TEXT) IS NULL OR ${sql.updatedAt} > @updated_after)`;
  return {
    created_at: list({ select: sql.select, where, createdAt: sql.createdAt, id: sql.id }),
    updated_at: list({ select: sql.select, where, createdAt: sql.updatedAt, id: sql.id }),
  };
}

/** The list's own parameters with the page's `@updated_after`. */
export function recordPageParams(params: Record<string, unknown>, page: RecordPage): Record<string, unknown> {
  return { ...params, updated_after: page.updatedAfter };
}

/** The parameters of one page: the list's own, the limit, and the position to continue after. */
export function pageParams(params: Record<string, unknown>, limit: number, position?: CreatedPosition): Record<string, unknown> {
  if (position === undefined) return { ...params, limit };
  return { ...params, limit, after_created_at: position[0], after_id: position[1] };
}
