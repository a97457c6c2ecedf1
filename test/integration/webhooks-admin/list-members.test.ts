import { describe, expect, it } from 'vitest';
import { createTestMember } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld } from './helpers.js';

const server = useTestServer();

describe('GET /api/workspace/{workspace_id}/members', () => {
  it('when any member asks, lists every member with role, oldest first, paged', async () => {
    const { workspace } = await adminWorld(server);
    // Joined a minute after the owner, so "oldest first" never hangs on clock ticks.
    const memberId = await createTestMember(server.store, workspace, 'member', new Date(Date.now() + 60_000));
    const asMember = adminClient(server.url, workspace.workspaceId, (await createTestMemberToken(server.store, workspace, memberId)).token);
    const first = (await asMember({ path: '/members', query: { limit: 1 } })).body as { data: { items: unknown[]; next_cursor: string } };
    const owner = (await server.store.accounts.getMembership(workspace.workspaceId, workspace.ownerId))!;
    expect(first).toEqual({
      code: 2000,
      messages: 'OK',
      data: {
        items: [{ user_id: workspace.ownerId, name: owner.user_name, email: owner.user_email, role: 'owner', joined_at: owner.created_at }],
        next_cursor: expect.any(String),
      },
    });
    const second = (await asMember({ path: '/members', query: { limit: 1, cursor: first.data.next_cursor } })).body;
    expect(second).toEqual({ code: 2000, messages: 'OK', data: { items: [expect.objectContaining({ user_id: memberId, role: 'member' })], next_cursor: null } });
  });
});
