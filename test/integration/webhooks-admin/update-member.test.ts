import { describe, expect, it } from 'vitest';
import { createTestKey, createTestMember } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, ROLE_FORBIDDEN } from './helpers.js';

const server = useTestServer();

const meStatus = async (key: string) => (await send(server.url, { path: '/api/v1/me', key })).status;

describe('PATCH /api/workspace/{workspace_id}/members/{user_id}', () => {
  it('when an owner is demoted, answers the keys they created, which keep working; expired and revoked ones are not listed', async () => {
    const { workspace, call } = await adminWorld(server);
    const ownerId = await createTestMember(server.store, workspace, 'owner');
    const kept = await createTestKey(server.store, workspace, { userId: ownerId, name: 'Dashboard' });
    const revoked = await createTestKey(server.store, workspace, { userId: ownerId, name: 'Old' });
    await server.store.apiKeys.revoke(revoked.id, new Date().toISOString());
    await createTestKey(server.store, workspace, { userId: ownerId, name: 'Expired', createdAt: new Date('2020-01-01T00:00:00Z'), expiresAt: new Date('2020-06-01T00:00:00Z') });

    const res = await call({ method: 'PATCH', path: `/members/${ownerId}`, body: { role: 'member' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: 2000,
      messages: 'Role changed to member; the 1 API key they created keeps working.',
      data: { member: { user_id: ownerId, role: 'member' }, api_keys: [{ id: kept.id, name: 'Dashboard', revoked_at: null }] },
    });
    expect(await meStatus(kept.key)).toBe(200);
  });

  it('with revoke_keys, revokes the demoted owner\'s keys in the same step', async () => {
    const { workspace, call } = await adminWorld(server);
    const ownerId = await createTestMember(server.store, workspace, 'owner');
    const keys = [await createTestKey(server.store, workspace, { userId: ownerId }), await createTestKey(server.store, workspace, { userId: ownerId })];
    const res = await call({ method: 'PATCH', path: `/members/${ownerId}`, body: { role: 'member', revoke_keys: true } });
    expect(res.status).toBe(200);
    const data = (res.body as { messages: string; data: { api_keys: Array<{ id: string; revoked_at: string | null }> } });
    expect(data.messages).toBe('Role changed to member; the 2 API keys they created were revoked.');
    expect(data.data.api_keys.map((k) => k.id).sort()).toEqual(keys.map((k) => k.id).sort());
    for (const k of data.data.api_keys) expect(k.revoked_at).toEqual(expect.any(String));
    for (const k of keys) expect(await meStatus(k.key)).toBe(401);
    // The workspace's own owner and key are untouched.
    expect(await meStatus(workspace.key)).toBe(200);
  });

  it('when the last owner would be demoted, answers 409 and keeps them owner; a member promoted is an owner', async () => {
    const { workspace, call } = await adminWorld(server);
    const res = await call({ method: 'PATCH', path: `/members/${workspace.ownerId}`, body: { role: 'member', revoke_keys: true } });
    expect([res.status, res.body]).toEqual([409, { code: 4090, messages: 'The workspace must keep at least one owner: make another member an owner first.', data: null }]);
    expect(await meStatus(workspace.key)).toBe(200);
    const memberId = await createTestMember(server.store, workspace, 'member');
    const promoted = await call({ method: 'PATCH', path: `/members/${memberId}`, body: { role: 'owner' } });
    expect(promoted.body).toMatchObject({ code: 2000, messages: 'Role changed to owner; they created no API key that still works.', data: { member: { role: 'owner' }, api_keys: [] } });
  });

  it('when a member who is not an owner tries, answers 403; an unknown member is 404; an unknown role 422', async () => {
    const { workspace, call } = await adminWorld(server);
    const memberId = await createTestMember(server.store, workspace, 'member');
    const asMember = adminClient(server.url, workspace.workspaceId, (await createTestMemberToken(server.store, workspace, memberId)).token);
    expect((await asMember({ method: 'PATCH', path: `/members/${memberId}`, body: { role: 'owner' } })).body).toEqual(ROLE_FORBIDDEN);
    const stranger = (await adminWorld(server)).workspace.ownerId;
    expect((await call({ method: 'PATCH', path: `/members/${stranger}`, body: { role: 'member' } })).body).toEqual({ code: 4040, messages: 'Member not found.', data: null });
    expect((await call({ method: 'PATCH', path: `/members/${memberId}`, body: { role: 'admin' } })).status).toBe(422);
  });
});
