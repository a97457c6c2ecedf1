import { randomUUID } from 'node:crypto';
import type { Store } from '../store/index.js';
import { createApiKey } from '../keys/api-keys.js';

export interface DemoAccount {
  workspace_id: string;
  user_id: string;
  key: string;
}

export type DemoDataLoader = (store: Store, workspaceId: string) => Promise<void> | void;

/**
 * On an empty database, creates a demo workspace, its owner and a key, then lets the data loader
 * fill it. Returns undefined when the database already holds a workspace (a key is shown once).
 */
export async function bootstrapDemo(store: Store, loadData?: DemoDataLoader): Promise<DemoAccount | undefined> {
  if ((await store.accounts.countWorkspaces()) > 0) return undefined;
  const now = new Date().toISOString();
  const workspaceId = randomUUID();
  const userId = randomUUID();
  await store.accounts.insertWorkspaceWithOwner(
    { id: workspaceId, name: 'Acme Analytics (demo)', subscription_status: 'active', created_at: now },
    { id: userId, email: 'owner@acme.example', name: 'Demo Owner', created_at: now },
    now,
  );
  const created = await createApiKey(store, { workspaceId, userId, name: 'Demo key' });
  await loadData?.(store, workspaceId);
  return { workspace_id: workspaceId, user_id: userId, key: created.key };
}
