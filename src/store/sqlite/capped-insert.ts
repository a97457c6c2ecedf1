import type { Db } from './database.js';

/**
 * An insert that counts first, in one BEGIN IMMEDIATE transaction (a savepoint inside an open
 * one): the write lock is taken before the count is read, so no other connection, process or
 * instance can insert between the two, and creations racing each other never pass `cap` together.
 * `countSql` and `insertSql` take the row's own `@name`s; the count is the first column of its row.
 */
export function prepareCappedInsert<Row extends object>(db: Db, countSql: string, insertSql: string): (row: Row, cap: number) => boolean {
  const count = db.prepare(countSql).pluck();
  const insert = db.prepare(insertSql);
  const insertUnderCap = db.transaction((row: Row, cap: number): boolean => {
    if ((count.get(row) as number) >= cap) return false;
    insert.run(row);
    return true;
  });
  return (row, cap) => insertUnderCap.immediate(row, cap);
}
