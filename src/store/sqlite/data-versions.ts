import type { Db } from './database.js';
import type { DataVersionStore } from '../interfaces/data-versions.js';
import { promised } from './promised.js';

/**
 * The version of a workspace's imported data: 0 until an import changes something, then raised
 * by each such import inside its transaction, so it moves exactly when the data does.
 */
export function createSyncDataVersionStore(db: Db) {
  const read = db.prepare('SELECT version FROM workspace_data_versions WHERE workspace_id = ?').pluck();
  const raise = db.prepare(
    `INSERT INTO workspace_data_versions (workspace_id, version) VALUES (?, 1)
     ON CONFLICT (workspace_id) DO UPDATE SET version = version + 1`,
  );
  return {
    get: (workspaceId: string): number => (read.get(workspaceId) as number | undefined) ?? 0,
    raise: (workspaceId: string): void => {
      raise.run(workspaceId);
    },
  };
}

export function createDataVersionStore(db: Db): DataVersionStore {
  return promised(createSyncDataVersionStore(db));
}
