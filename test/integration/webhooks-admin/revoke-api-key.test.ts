import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestKey } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld } from './helpers.js';

const server = useTestServer();

const KEY_NOT_FOUND = { code: 4040, messages: 'API key not found.', data: null };

describe('DELETE /api/workspace/{workspace_id}/api-keys/{key_id}', () => {
  it('when an owner revokes a key, the key answers 401 on its next request; revoking again changes nothing', async () => {
    const { workspace, call } = await adminWorld(server);
    const key = await createTestKey(server.store, workspace, { name: 'Doomed' });
    expect((await send(server.url, { path: '/api/v1/me', key: key.key })).status).toBe(200);
    const response = await call({ method: 'DELETE', path: `/api-keys/${key.id}` });
    expect(response.status).toBe(200);
    const revoked = (response.body as { data: { revoked_at: string } }).data;
    expect(response.body).toEqual({ code: 2000, messages: 'Revoked.', data: expect.objectContaining({ id: key.id, name: 'Doomed', revoked_at: expect.any(String) }) });
    expect((await send(server.url, { path: '/api/v1/me', key: key.key })).body).toEqual({ code: 4022, messages: 'The API key is invalid, revoked or expired.', data: null });
    const again = await call({ method: 'DELETE', path: `/api-keys/${key.id}` });
    expect((again.body as { data: { revoked_at: string } }).data.revoked_at).toBe(revoked.revoked_at);
  });

  it('when the key is unknown or another workspace\'s, answers 404 and revokes nothing', async () => {
    const mine = await adminWorld(server);
    const theirs = await adminWorld(server);
    for (const id of [randomUUID(), theirs.workspace.keyId]) {
      const response = await mine.call({ method: 'DELETE', path: `/api-keys/${id}` });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(KEY_NOT_FOUND);
    }
    expect((await send(server.url, { path: '/api/v1/me', key: theirs.workspace.key })).status).toBe(200);
  });
});
