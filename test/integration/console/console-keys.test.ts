import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { consoleMember, csrfOf, formKeyOf, textOf } from '../../support/console-client.js';

const KEY = /wsk_live_[A-Za-z0-9]{38}/;

describe('console: API keys', () => {
  it('creates a key through the administration API and shows it once; the list never shows it again', async () => {
    const { browser, api } = await consoleMember();
    const list = await browser.get('/console/keys');
    const created = await browser.post('/console/keys', {
      csrf: csrfOf(list.html), idempotency_key: formKeyOf(list.html, '/console/keys'),
      name: 'Reporting', scopes: ['visibility:read', 'content:read'], expires_on: '2031-01-02',
    });
    expect(created.status).toBe(201);
    const key = KEY.exec(created.html)?.[0];
    expect(key).toBeDefined();
    expect(textOf(created.html)).toContain('shown only this once');

    const listed = (await api({ path: '/api-keys' })).body as { data: { items: Array<{ name: string; scopes: string[]; expires_at: string }> } };
    expect(listed.data.items.find((k) => k.name === 'Reporting')).toMatchObject({ scopes: ['visibility:read', 'content:read'], expires_at: '2031-01-02T00:00:00.000Z' });
    const again = await browser.get('/console/keys');
    expect(again.html).not.toContain(key!);
    expect(textOf(again.html)).toContain('Reporting');
  });

  it('sends a form twice as one key: the replay says the key was shown and offers to revoke it and create another', async () => {
    const { browser, api } = await consoleMember();
    const list = await browser.get('/console/keys');
    const form = { csrf: csrfOf(list.html), idempotency_key: formKeyOf(list.html, '/console/keys'), name: 'Twice', scopes: ['iq:read'] };
    const first = await browser.post('/console/keys', form);
    const second = await browser.post('/console/keys', form);
    expect(first.status).toBe(201);
    expect(second.status).toBe(409);
    expect(KEY.test(second.html)).toBe(false);
    expect(textOf(second.html)).toContain('This key was already created');
    const listed = (await api({ path: '/api-keys' })).body as { data: { items: Array<{ id: string; name: string; revoked_at: string | null }> } };
    const twice = listed.data.items.filter((k) => k.name === 'Twice');
    expect(twice).toHaveLength(1);

    const revokeAction = `/console/keys/${twice[0]!.id}/revoke`;
    expect(second.html).toContain(`action="${revokeAction}"`);
    const revoked = await browser.post(revokeAction, { csrf: csrfOf(second.html), then: 'create' });
    expect(revoked.status).toBe(303);
    expect(revoked.location).toBe('/console/keys?done=key-revoked-create#create-key');
    const after = (await api({ path: '/api-keys' })).body as { data: { items: Array<{ name: string; revoked_at: string | null }> } };
    expect(after.data.items.find((k) => k.name === 'Twice')?.revoked_at).not.toBeNull();
  });

  it('renames and narrows a key, and shows the API\'s refusal of an empty name', async () => {
    const { browser, api, ws } = await consoleMember();
    const edit = await browser.get(`/console/keys/${ws.keyId}`);
    expect(edit.status).toBe(200);
    const saved = await browser.post(`/console/keys/${ws.keyId}`, { csrf: csrfOf(edit.html), name: 'Narrowed', scopes: ['workspace:read'] });
    expect(saved.status).toBe(303);
    const listed = (await api({ path: '/api-keys' })).body as { data: { items: Array<{ id: string; name: string; scopes: string[] }> } };
    expect(listed.data.items.find((k) => k.id === ws.keyId)).toMatchObject({ name: 'Narrowed', scopes: ['workspace:read'] });

    const refused = await browser.post(`/console/keys/${ws.keyId}`, { csrf: csrfOf(edit.html), name: ' ', scopes: ['workspace:read'] });
    expect(refused.status).toBe(422);
    expect(textOf(refused.html)).toContain('Invalid parameters: body.name');
  });

  it('asks before revoking, then revokes', async () => {
    const { browser, api, ws } = await consoleMember();
    const confirm = await browser.get(`/console/keys/${ws.keyId}/revoke`);
    expect(textOf(confirm.html)).toContain('cannot be restored');
    expect((await browser.post(`/console/keys/${ws.keyId}/revoke`, {})).status).toBe(403);
    const revoked = await browser.post(`/console/keys/${ws.keyId}/revoke`, { csrf: csrfOf(confirm.html) });
    expect(revoked.status).toBe(303);
    const listed = (await api({ path: '/api-keys' })).body as { data: { items: Array<{ id: string; revoked_at: string | null }> } };
    expect(listed.data.items.find((k) => k.id === ws.keyId)?.revoked_at).not.toBeNull();
  });

  it('shows a member (not an owner) the API\'s refusal, and lets them create nothing', async () => {
    const { browser } = await consoleMember({ role: 'member' });
    const list = await browser.get('/console/keys');
    expect(list.status).toBe(403);
    expect(textOf(list.html)).toContain('Only owners of the workspace can do this; your role is member.');
    const created = await browser.post('/console/keys', { csrf: csrfOf(list.html), name: 'Sneaky' });
    expect(created.status).toBe(403);
    const members = await browser.get('/console/members');
    expect(members.status).toBe(200);
    expect(members.html).not.toContain('Remove…');
  });

  it('reaches only the signed-in workspace: another workspace\'s key is not found', async () => {
    const { browser, server } = await consoleMember();
    const other = await createTestWorkspace(server.store);
    const edit = await browser.get(`/console/keys/${other.keyId}`);
    expect(edit.status).toBe(404);
    const page = await browser.get('/console/keys');
    const revoke = await browser.post(`/console/keys/${other.keyId}/revoke`, { csrf: csrfOf(page.html) });
    expect(revoke.status).toBe(404);
    expect(textOf(revoke.html)).toContain('not found');
  });
});
