import { describe, expect, it } from 'vitest';
import { createTestKey } from '../../support/accounts.js';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld } from './helpers.js';

const server = useTestServer();

describe('GET /api/workspace/{workspace_id}/api-keys', () => {
  it('when the workspace has keys, lists them oldest first with revoked ones, never a secret', async () => {
    const { workspace, call } = await adminWorld(server);
    // Created a minute after the workspace's own key, so "oldest first" never hangs on clock ticks.
    const second = await createTestKey(server.store, workspace, { name: 'Second', scopes: ['iq:read'], createdAt: new Date(Date.now() + 60_000) });
    await server.store.apiKeys.revoke(second.id, new Date().toISOString());
    const response = await call({ path: '/api-keys', query: { limit: 1 } });
    const page = response.body as { data: { items: Array<{ id: string }>; next_cursor: string } };
    expect(page.data.items.map((k) => k.id)).toEqual([workspace.keyId]);
    const rest = (await call({ path: '/api-keys', query: { limit: 1, cursor: page.data.next_cursor } })).body;
    expect(rest).toEqual({
      code: 2000,
      messages: 'OK',
      data: {
        items: [expect.objectContaining({ id: second.id, name: 'Second', scopes: ['iq:read'], revoked_at: expect.any(String) })],
        next_cursor: null,
      },
    });
    expect(response.text).not.toContain(workspace.key);
  });
});
