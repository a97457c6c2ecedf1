import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, createWebhook } from './helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true, workspaceLimits: { activeApiKeys: 3, webhooks: 1 } });

describe('how many API keys and webhooks a workspace may hold', () => {
  it('refuses one more active API key than the limit with 409 (4092); revoking one makes room', async () => {
    const { workspace, call } = await adminWorld(server);
    // The workspace's own key is the first of three.
    for (const name of ['Second', 'Third']) expect((await call({ method: 'POST', path: '/api-keys', body: { name } })).status).toBe(201);
    const refused = await call({ method: 'POST', path: '/api-keys', body: { name: 'Fourth' } });
    expect([refused.status, refused.body]).toEqual([409, {
      code: 4092, messages: 'The workspace already holds 3 active API keys, as many as it may: revoke one first.', data: null,
    }]);
    expect((await call({ method: 'DELETE', path: `/api-keys/${workspace.keyId}` })).status).toBe(200);
    expect((await call({ method: 'POST', path: '/api-keys', body: { name: 'Fourth' } })).status).toBe(201);
  });

  it('refuses one more webhook than the limit with 409 (4092); deleting one makes room', async () => {
    const { call } = await adminWorld(server);
    const first = await createWebhook(call, { url: 'http://127.0.0.1:9/one' });
    const refused = await call({ method: 'POST', path: '/webhooks', body: { url: 'http://127.0.0.1:9/two', name: 'Two', events: ['content.status_updated'] } });
    expect([refused.status, refused.body]).toEqual([409, { code: 4092, messages: 'The workspace already holds 1 webhooks, as many as it may: delete one first.', data: null }]);
    expect((await call({ method: 'DELETE', path: `/webhooks/${first.id}` })).status).toBe(200);
    await createWebhook(call, { url: 'http://127.0.0.1:9/two' });
  });

  // The count and the insert are one transaction, serialised per workspace: creations racing each
  // other never pass the limit together, on either store.
  it('lets exactly as many concurrent creations through as the limits leave room for', async () => {
    const { call } = await adminWorld(server);
    const keys = await Promise.all(Array.from({ length: 8 }, (_, i) => call({ method: 'POST', path: '/api-keys', body: { name: `Racing ${i}` } })));
    const hooks = await Promise.all(Array.from({ length: 5 }, (_, i) => call({
      method: 'POST', path: '/webhooks', body: { url: `http://127.0.0.1:9/race-${i}`, name: `Racing ${i}`, events: ['content.status_updated'] },
    })));
    const outcome = (answers: typeof keys) => answers.map((a) => (a.body as { code: number }).code).sort();
    // The workspace's own key is the first of three.
    expect(outcome(keys)).toEqual([2010, 2010, 4092, 4092, 4092, 4092, 4092, 4092]);
    expect(outcome(hooks)).toEqual([2010, 4092, 4092, 4092, 4092]);
    const listed = await call({ method: 'GET', path: '/api-keys' });
    expect((listed.body as { data: { items: Array<{ revoked_at: string | null }> } }).data.items.filter((k) => k.revoked_at === null)).toHaveLength(3);
    expect((await call({ method: 'GET', path: '/webhooks' })).body as { data: { items: unknown[] } }).toHaveProperty('data.items.length', 1);
  });
});
