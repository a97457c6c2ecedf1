import type { DataVersionStore } from '../interfaces/data-versions.js';
import { run, value, type Queryable } from './query.js';

/** The version of a workspace's imported data on PostgreSQL (`../interfaces/data-versions.ts`). */
export function createPostgresDataVersionStore(db: Queryable): DataVersionStore {
  return {
    get: async (workspaceId: string) => (await value<number>(db, 'SELECT version FROM workspace_data_versions WHERE workspace_id = ?', [workspaceId])) ?? 0,
    async raise(workspaceId: string): Promise<void> {
      // Qualified: in PostgreSQL a bare `version` here could be the existing row's or excluded's.
      await run(db, `INSERT INTO workspace_data_versions (workspace_id, version) VALUES (?, 1)
        ON CONFLICT (workspace_id) DO UPDATE SET version = workspace_data_versions.version + 1`, [workspaceId]);
    },
  };
}
