import { randomUUID } from 'node:crypto';
import type { Store } from '../../src/store/index.js';
import type { SubscriptionStatus } from '../../src/store/interfaces/accounts.js';
import { createApiKey } from '../../src/keys/api-keys.js';
import { ALL_SCOPES, type Scope } from '../../src/keys/scopes.js';

export interface TestWorkspace {
  workspaceId: string;
  ownerId: string;
  /** A key with every scope, created by the owner. */
  key: string;
  keyId: string;
}

/** A fresh workspace with its own owner and an all-scopes key; every test makes its own. */
export async function createTestWorkspace(
  store: Store,
  options: { name?: string; subscription?: SubscriptionStatus } = {},
): Promise<TestWorkspace> {
  const now = new Date().toISOString();
  const workspaceId = randomUUID();
  const ownerId = randomUUID();
  await store.accounts.insertWorkspace({
    id: workspaceId,
    name: options.name ?? `Workspace ${workspaceId.slice(0, 8)}`,
    subscription_status: options.subscription ?? 'active',
    created_at: now,
  });
  await store.accounts.insertUser({ id: ownerId, email: `owner-${ownerId}@example.test`, name: 'Test Owner', created_at: now });
  await store.accounts.upsertMembership(workspaceId, ownerId, 'owner', now);
  const created = await createApiKey(store, { workspaceId, userId: ownerId, name: 'Test key' });
  return { workspaceId, ownerId, key: created.key, keyId: created.id };
}

export async function createTestKey(
  store: Store,
  workspace: TestWorkspace,
  options: { scopes?: readonly Scope[]; expiresAt?: Date; userId?: string; name?: string; createdAt?: Date } = {},
): Promise<{ key: string; id: string }> {
  const created = await createApiKey(store, {
    workspaceId: workspace.workspaceId,
    userId: options.userId ?? workspace.ownerId,
    name: options.name ?? 'Scoped test key',
    scopes: options.scopes ?? ALL_SCOPES,
    expiresAt: options.expiresAt,
    // Test data is not held to the service's limit; the limit's own tests set theirs.
    maxActive: Number.POSITIVE_INFINITY,
  }, options.createdAt);
  return { key: created.key, id: created.id };
}

export async function createTestMember(store: Store, workspace: TestWorkspace, role: 'owner' | 'member', joinedAt: Date = new Date()): Promise<string> {
  const now = joinedAt.toISOString();
  const userId = randomUUID();
  await store.accounts.insertUser({ id: userId, email: `user-${userId}@example.test`, name: 'Test Member', created_at: now });
  await store.accounts.upsertMembership(workspace.workspaceId, userId, role, now);
  return userId;
}
