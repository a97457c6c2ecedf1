import { describe, expect, it } from 'vitest';
import { createTestKey, createTestMember, createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, ROLE_FORBIDDEN } from './helpers.js';

const server = useTestServer();

const readStatus = async (key: string, path: string) => (await send(server.url, { path, key })).status;
const KEY_NOT_FOUND = { code: 4040, messages: 'API key not found.', data: null };

describe('PATCH /api/workspace/{workspace_id}/api-keys/{key_id}', () => {
  it('renames the key and removes a scope; the next read needing that scope answers 403, the others still work', async () => {
    const { workspace, call } = await adminWorld(server);
    const key = await createTestKey(server.store, workspace, { name: 'Dashboard', scopes: ['workspace:read', 'visibility:read'] });
    expect(await readStatus(key.key, '/api/v1/visibility/prompts')).toBe(200);

    const res = await call({ method: 'PATCH', path: `/api-keys/${key.id}`, body: { name: 'Dashboard (workspace only)', scopes: ['workspace:read'] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: 2000,
      messages: 'Updated.',
      data: { id: key.id, name: 'Dashboard (workspace only)', scopes: ['workspace:read'], revoked_at: null },
    });
    // The view, never the secret.
    expect(JSON.stringify(res.body)).not.toContain(key.key);
    expect(Object.keys((res.body as { data: object }).data)).not.toContain('key');

    const refused = await send(server.url, { path: '/api/v1/visibility/prompts', key: key.key });
    expect(refused.status).toBe(403);
    expect(await readStatus(key.key, '/api/v1/workspace')).toBe(200);
    const listed = await call({ path: '/api-keys' });
    expect(listed.body).toMatchObject({ data: { items: expect.arrayContaining([expect.objectContaining({ id: key.id, name: 'Dashboard (workspace only)', scopes: ['workspace:read'] })]) } });
  });

  it('refuses to widen a key, an empty body, an empty scope list and a blank name (422 naming the field), changing nothing', async () => {
    const { workspace, call } = await adminWorld(server);
    const key = await createTestKey(server.store, workspace, { name: 'Narrow', scopes: ['iq:read'] });

    const wider = await call({ method: 'PATCH', path: `/api-keys/${key.id}`, body: { name: 'Wider', scopes: ['iq:read', 'content:read'] } });
    expect(wider.status).toBe(422);
    expect(wider.body).toMatchObject({
      code: 4220,
      data: { errors: [{ in: 'body', name: 'scopes', message: expect.stringContaining('a wider key is a new key') }] },
    });
    expect((wider.body as { messages: string }).messages).toContain('content:read');

    for (const [body, error] of [[{}, { in: 'body', name: '', message: 'must set at least one field' }], [{ scopes: [] }, { in: 'body', name: 'scopes' }]] as const) {
      const res = await call({ method: 'PATCH', path: `/api-keys/${key.id}`, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ code: 4220, data: { errors: [error] } });
    }
    const blank = await call({ method: 'PATCH', path: `/api-keys/${key.id}`, body: { name: '  ' } });
    expect(blank.body).toEqual({
      code: 4220,
      messages: 'Invalid parameters: body.name must not be blank.',
      data: { errors: [{ in: 'body', name: 'name', message: 'must not be blank' }] },
    });
    const row = await server.store.apiKeys.get(key.id);
    expect(row).toMatchObject({ name: 'Narrow', scopes: 'iq:read' });
    expect(await readStatus(key.key, '/api/v1/content/articles')).toBe(403);
  });

  it('answers 403 to a member, 404 for an unknown key or another workspace\'s, 409 for a revoked key', async () => {
    const { workspace, call } = await adminWorld(server);
    const key = await createTestKey(server.store, workspace, { name: 'Kept' });

    const memberId = await createTestMember(server.store, workspace, 'member');
    const member = adminClient(server.url, workspace.workspaceId, (await createTestMemberToken(server.store, workspace, memberId)).token);
    const forbidden = await member({ method: 'PATCH', path: `/api-keys/${key.id}`, body: { name: 'Mine' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual(ROLE_FORBIDDEN);

    const other = await createTestWorkspace(server.store);
    const otherKey = await createTestKey(server.store, other, { name: 'Theirs' });
    for (const id of [otherKey.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await call({ method: 'PATCH', path: `/api-keys/${id}`, body: { name: 'Taken' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(KEY_NOT_FOUND);
    }
    expect(await server.store.apiKeys.get(otherKey.id)).toMatchObject({ name: 'Theirs' });

    await call({ method: 'DELETE', path: `/api-keys/${key.id}` });
    const revoked = await call({ method: 'PATCH', path: `/api-keys/${key.id}`, body: { name: 'Revived' } });
    expect(revoked.status).toBe(409);
    expect(revoked.body).toMatchObject({ code: 4090, data: null });
    expect(await server.store.apiKeys.get(key.id)).toMatchObject({ name: 'Kept' });
  });
});
