import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { send, type ObservedResponse } from '../../support/http.js';
import { startTestServerForThisTest } from '../../support/test-server.js';

// Text never holds NUL (\u0000), on either store: PostgreSQL refused it with a 500 (a key's or a
// webhook's name), SQLite stored it. Every text of a request is checked the same way.

function expectNulRefused(res: ObservedResponse, errors: Array<{ in: string; name: string }>): void {
  expect([res.status, res.body], res.text.slice(0, 300)).toEqual([422, {
    code: 4220,
    messages: expect.stringContaining('NUL'),
    data: { errors: errors.map((e) => ({ ...e, message: expect.stringContaining('NUL') })) },
  }]);
}

async function owner() {
  const server = await startTestServerForThisTest({ allowPrivateWebhookTargets: true });
  const workspace = await createTestWorkspace(server.store);
  const call = adminClient(server.url, workspace.workspaceId, (await createTestMemberToken(server.store, workspace)).token);
  return { server, workspace, call };
}

describe('NUL in the text of a request', () => {
  it('in a new key\'s name: 422 naming it, and no key is made', async () => {
    const { call } = await owner();
    expectNulRefused(await call({ method: 'POST', path: '/api-keys', body: { name: 'Dash\u0000board' } }), [{ in: 'body', name: 'name' }]);
    const keys = await call({ path: '/api-keys' });
    expect((keys.body as { data: { items: Array<{ name: string }> } }).data.items.map((k) => k.name)).not.toContain('Dash\u0000board');
  });

  it('in a new webhook\'s name and description: 422 naming both', async () => {
    const { call } = await owner();
    const res = await call({
      method: 'POST',
      path: '/webhooks',
      body: { url: 'http://127.0.0.1:9/hooks', name: '\u0000', description: 'a\u0000b', events: ['content.status_updated'] },
    });
    expectNulRefused(res, [{ in: 'body', name: 'name' }, { in: 'body', name: 'description' }]);
  });

  it('in a query value of the read API: 422 naming the parameter', async () => {
    const { server, workspace } = await owner();
    expectNulRefused(await send(server.url, { path: '/api/v1/visibility/prompts', query: { q: 'crm\u0000' } }, workspace.key), [{ in: 'query', name: 'q' }]);
  });
});
