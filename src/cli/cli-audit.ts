import type { Store } from '../store/index.js';
import { CLI_ACTOR, recordAudit } from '../audit/record-audit.js';
import type { CascadedChange } from '../audit/audit-trail.js';

/**
 * Runs a write of the command line and records what it changed in the workspace's audit log, as
 * done by the operator's command line (`cli`), in one transaction: both or neither.
 */
export async function writeAudited<T>(store: Store, workspaceId: string, work: () => Promise<T>, changesOf: (result: T) => readonly CascadedChange[]): Promise<T> {
  return store.atomically(async () => {
    const result = await work();
    await recordAudit(store, changesOf(result).map((change) => ({ workspaceId, actor: CLI_ACTOR, ...change })));
    return result;
  });
}
