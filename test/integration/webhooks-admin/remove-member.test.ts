import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestKey, createTestMember } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, ROLE_FORBIDDEN, TOKEN_INVALID } from './helpers.js';

const server = useTestServer();

describe('DELETE /api/workspace/{workspace_id}/members/{user_id}', () => {
  it('when an owner removes a member, their API keys and member tokens stop at once, and stay stopped if they return', async () => {
    const { workspace, call } = await adminWorld(server);
    const memberId = await createTestMember(server.store, workspace, 'owner');
    const key = await createTestKey(server.store, workspace, { userId: memberId });
    const token = (await createTestMemberToken(server.store, workspace, memberId)).token;
    expect((await send(server.url, { path: '/api/v1/me', key: key.key })).status).toBe(200);

    const response = await call({ method: 'DELETE', path: `/members/${memberId}` });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ code: 2040, messages: 'Member removed; their API keys and tokens no longer work.', data: { id: memberId, deleted: true } });
    expect((await send(server.url, { path: '/api/v1/me', key: key.key })).status).toBe(401);
    const asRemoved = adminClient(server.url, workspace.workspaceId, token);
    expect((await asRemoved({ path: '/members' })).body).toEqual(TOKEN_INVALID);

    await server.store.accounts.upsertMembership(workspace.workspaceId, memberId, 'owner', new Date().toISOString());
    expect((await send(server.url, { path: '/api/v1/me', key: key.key })).status).toBe(401);
    expect((await asRemoved({ path: '/members' })).status).toBe(401);
    const listed = (await call({ path: '/api-keys' })).body as { data: { items: Array<{ id: string; revoked_at: string | null }> } };
    expect(listed.data.items.find((k) => k.id === key.id)?.revoked_at).toEqual(expect.any(String));
  });

  it('when the last owner would be removed, answers 409 and keeps them', async () => {
    const { workspace, call } = await adminWorld(server);
    const response = await call({ method: 'DELETE', path: `/members/${workspace.ownerId}` });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ code: 4090, messages: 'The workspace must keep at least one owner: make another member an owner first.', data: null });
    expect((await call({ path: '/members' })).status).toBe(200);
  });

  it('when an owner removes themselves while another owner remains, their own token stops', async () => {
    const { workspace, call } = await adminWorld(server);
    await createTestMember(server.store, workspace, 'owner');
    expect((await call({ method: 'DELETE', path: `/members/${workspace.ownerId}` })).status).toBe(200);
    expect((await call({ path: '/members' })).status).toBe(401);
  });

  it('when a member who is not an owner tries, answers 403', async () => {
    const { workspace } = await adminWorld(server);
    const memberId = await createTestMember(server.store, workspace, 'member');
    const asMember = adminClient(server.url, workspace.workspaceId, (await createTestMemberToken(server.store, workspace, memberId)).token);
    const response = await asMember({ method: 'DELETE', path: `/members/${memberId}` });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(ROLE_FORBIDDEN);
  });

  it('when the user is not a member of this workspace, answers 404', async () => {
    const { call } = await adminWorld(server);
    const stranger = (await adminWorld(server)).workspace.ownerId;
    for (const id of [randomUUID(), stranger]) {
      const response = await call({ method: 'DELETE', path: `/members/${id}` });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ code: 4040, messages: 'Member not found.', data: null });
    }
  });
});
