import type { PostgresPool } from './pool.js';
import { row } from './query.js';

/**
 * A store's read of one record of a workspace: `sql` takes the id, then the workspace (another
 * workspace's record is as absent as an unknown one); the row as `view` shows it.
 */
export function postgresGetById<Row, Item>(pool: PostgresPool, sql: string, view: (row: Row) => Item) {
  return async (workspaceId: string, id: string): Promise<Item | undefined> => {
    const found = await row<Row>(pool, sql, [id, workspaceId]);
    return found && view(found);
  };
}
