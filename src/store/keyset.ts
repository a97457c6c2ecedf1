import type { Db } from './database.js';

/** The sort keys of a list ordered by creation time then id: (created_at, id). */
export type CreatedPosition = readonly [createdAt: string, id: string];

/**
 * The two statements of a list in (created time, id) order: the first page, and the page after a
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
