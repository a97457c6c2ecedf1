import type { PostgresPool } from './pool.js';
import { inTransaction, run, value } from './query.js';

// Serialises the capped inserts of one workspace: a second transaction waits here until the first
// commits, then counts what it inserted. NO KEY UPDATE, not UPDATE: inserts elsewhere that only
// reference the workspace (their foreign-key check takes KEY SHARE) are not held up.
const LOCK_WORKSPACE = 'SELECT id FROM workspaces WHERE id = @workspace_id FOR NO KEY UPDATE';

/**
 * An insert that counts first, in one transaction (a savepoint inside a unit of work) holding the
 * workspace row's lock, so creations racing each other never pass `cap` together: under READ
 * COMMITTED two transactions would otherwise each count without the other's row. `countSql` and
 * `insertSql` take the row's own `@name`s, `workspace_id` among them.
 */
export function prepareCappedInsert<Row extends { workspace_id: string }>(
  pool: PostgresPool,
  countSql: string,
  insertSql: string,
): (row: Row, cap: number) => Promise<boolean> {
  return (row, cap) => inTransaction(pool, async (tx) => {
    await run(tx, LOCK_WORKSPACE, { workspace_id: row.workspace_id });
    // count(*) is a bigint, which node-postgres reads as text.
    if (Number(await value<string>(tx, countSql, row)) >= cap) return false;
    await run(tx, insertSql, row);
    return true;
  });
}
