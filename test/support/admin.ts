import type { Store } from '../../src/store/index.js';
import { createMemberToken } from '../../src/keys/member-tokens.js';
import type { TestWorkspace } from './accounts.js';
import { send, type ObservedResponse } from './http.js';

/** A member token of `userId` (default: the workspace owner), for the administration API. */
export async function createTestMemberToken(store: Store, workspace: TestWorkspace, userId = workspace.ownerId): Promise<{ token: string; id: string }> {
  const created = await createMemberToken(store, { workspaceId: workspace.workspaceId, userId, name: 'Test token' });
  return { token: created.token, id: created.id };
}

export interface AdminCall {
  method?: string;
  /** Relative to `/api/workspace/{workspace_id}`, e.g. `/webhooks`. */
  path: string;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Default: the client's token; `null` sends no credential. */
  token?: string | null;
  /** Default: the client's workspace. */
  workspaceId?: string;
}

/** Calls the administration API of one workspace as one member token. */
export function adminClient(baseUrl: string, workspaceId: string, token: string) {
  return (call: AdminCall): Promise<ObservedResponse> =>
    send(baseUrl, {
      method: call.method ?? 'GET',
      path: `/api/workspace/${call.workspaceId ?? workspaceId}${call.path}`,
      query: call.query,
      body: call.body,
      headers: call.headers,
      key: call.token === undefined ? token : call.token,
    });
}

export type AdminClient = ReturnType<typeof adminClient>;
