import { describe, it } from 'vitest';
import { createTestKey, createTestMember } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { expectStablePaging } from '../../contract/framework/paging.js';
import { adminWorld, createWebhook, emit, type AdminWorld } from './helpers.js';
import { valuesOf } from '../../support/database-rows.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

/** The paging promise (the paging rules of docs/client-teams.md) on one administration list of `mine`, with `theirs` as the foreign workspace. */
async function checkPaging(mine: AdminWorld, theirs: AdminWorld, path: (w: AdminWorld) => string, ids: string[], itemId?: (item: unknown) => string) {
  await expectStablePaging({
    call: (spec) => send(server.url, spec),
    request: { path: path(mine), key: mine.token },
    foreign: { path: path(theirs), key: theirs.token },
    ids,
    ...(itemId ? { itemId } : {}),
  });
}

const base = (w: AdminWorld) => `/api/workspace/${w.workspace.workspaceId}`;

describe('paging of the administration lists', () => {
  it('when walking webhooks with limit 1, 2 and 3, answers each once in one order and refuses altered or foreign cursors', async () => {
    const [mine, theirs] = await Promise.all([adminWorld(server), adminWorld(server)]);
    const ids = [];
    for (let i = 0; i < 5; i += 1) ids.push((await createWebhook(mine.call, { url: `http://127.0.0.1:9/${i}` })).id);
    for (let i = 0; i < 2; i += 1) await createWebhook(theirs.call, { url: `http://127.0.0.1:9/${i}` });
    await checkPaging(mine, theirs, (w) => `${base(w)}/webhooks`, ids);
  });

  it('when walking API keys and members, does the same', async () => {
    const [mine, theirs] = await Promise.all([adminWorld(server), adminWorld(server)]);
    const keys = [mine.workspace.keyId];
    const members = [mine.workspace.ownerId];
    for (let i = 0; i < 4; i += 1) {
      keys.push((await createTestKey(server.store, mine.workspace)).id);
      members.push(await createTestMember(server.store, mine.workspace, 'member'));
    }
    await createTestKey(server.store, theirs.workspace);
    await createTestMember(server.store, theirs.workspace, 'member');
    await checkPaging(mine, theirs, (w) => `${base(w)}/api-keys`, keys);
    await checkPaging(mine, theirs, (w) => `${base(w)}/members`, members, (item) => (item as { user_id: string }).user_id);
  });

  it('when walking a webhook\'s deliveries, does the same', async () => {
    const [mine, theirs] = await Promise.all([adminWorld(server), adminWorld(server)]);
    const hook = await createWebhook(mine.call, { url: 'http://127.0.0.1:9/mine' });
    const foreignHook = await createWebhook(theirs.call, { url: 'http://127.0.0.1:9/theirs' });
    for (let i = 0; i < 5; i += 1) await emit(server, mine.workspace.workspaceId);
    for (let i = 0; i < 2; i += 1) await emit(server, theirs.workspace.workspaceId);
    const ids = await valuesOf<string>(server.store, 'SELECT id FROM webhook_deliveries WHERE webhook_id = ?', [hook.id]);
    await expectStablePaging({
      call: (spec) => send(server.url, spec),
      request: { path: `${base(mine)}/webhooks/${hook.id}/deliveries`, key: mine.token },
      foreign: { path: `${base(theirs)}/webhooks/${foreignHook.id}/deliveries`, key: theirs.token },
      ids,
    });
  });
});
