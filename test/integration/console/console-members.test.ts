import { describe, expect, it } from 'vitest';
import { createTestKey, createTestMember } from '../../support/accounts.js';
import { consoleMember, csrfOf, textOf } from '../../support/console-client.js';
import { send } from '../../support/http.js';

describe('console: members', () => {
  it('lists members, changes a role, and removes a member after saying their keys are revoked for good', async () => {
    const { server, ws, browser, api } = await consoleMember();
    const otherId = await createTestMember(server.store, ws, 'owner');
    const theirKey = await createTestKey(server.store, ws, { userId: otherId });

    const list = await browser.get('/console/members');
    expect(textOf(list.html)).toContain(`workspace-api member add --workspace ${ws.workspaceId} --user <user id> --role member`);
    const demoted = await browser.post(`/console/members/${otherId}`, { csrf: csrfOf(list.html), role: 'member' });
    expect(demoted.status).toBe(303);
    const members = (await api({ path: '/members' })).body as { data: { items: Array<{ user_id: string; role: string }> } };
    expect(members.data.items.find((m) => m.user_id === otherId)?.role).toBe('member');

    const confirm = await browser.get(`/console/members/${otherId}/remove`);
    expect(textOf(confirm.html)).toContain('Every API key they created and every member token they hold is revoked for good');
    const removed = await browser.post(`/console/members/${otherId}/remove`, { csrf: csrfOf(confirm.html) });
    expect(removed.status).toBe(303);
    expect(removed.location).toBe('/console/members?done=member-removed');
    expect((await send(server.url, { path: '/api/v1/me', key: theirKey.key })).status).toBe(401);
  });

  it('refuses the last owner\'s demotion with the API\'s message', async () => {
    const { ws, browser } = await consoleMember();
    const list = await browser.get('/console/members');
    const refused = await browser.post(`/console/members/${ws.ownerId}`, { csrf: csrfOf(list.html), role: 'member' });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('role="alert"');
  });
});
