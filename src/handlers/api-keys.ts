import type { AdminOperationHandler } from '../operations/handler-types.js';
import { createWorkspaceApiKey, revokeWorkspaceApiKey, toApiKeyView, updateWorkspaceApiKey } from '../admin/api-keys.js';
import { readCreatedOrderPage } from '../pagination/created-order-page.js';
import { created, ok, okWith } from '../operations/success.js';

export const listApiKeys: AdminOperationHandler<'listApiKeys'> = async ({ operationId, path, query, store, cursors }) =>
  ok(await readCreatedOrderPage(
    cursors,
    { list: operationId, workspaceId: path.workspace_id, filters: {} },
    query,
    async (limit, after) => (await store.apiKeys.listPage(path.workspace_id, limit, after)).map(toApiKeyView),
    (key) => [key.created_at, key.id],
  ));

export const createApiKey: AdminOperationHandler<'createApiKey'> = async ({ path, body, caller, store, now, services }) =>
  created(
    await createWorkspaceApiKey(store, {
      workspaceId: path.workspace_id,
      userId: caller.user_id,
      name: body.name,
      scopes: body.scopes,
      expiresAt: body.expires_at,
      now,
      maxActive: services.limits.activeApiKeys,
    }),
    'Created. Store the key now: it is not shown again.',
  );

export const revokeApiKey: AdminOperationHandler<'revokeApiKey'> = async ({ path, store, now }) =>
  okWith(await revokeWorkspaceApiKey(store, { workspaceId: path.workspace_id, keyId: path.key_id, now }), 'Revoked.');

export const updateApiKey: AdminOperationHandler<'updateApiKey'> = async ({ path, body, store }) =>
  okWith(await updateWorkspaceApiKey(store, { workspaceId: path.workspace_id, keyId: path.key_id, name: body.name, scopes: body.scopes }), 'Updated.');
