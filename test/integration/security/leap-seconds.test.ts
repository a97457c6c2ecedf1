import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { createTestWebhook } from '../../support/webhooks.js';
import { startTestServerForThisTest } from '../../support/test-server.js';

// A leap second (`23:59:60`) is a valid RFC 3339 time, which the contract's `date-time` accepts.
// Every date-time a request takes reads it as the last millisecond of its minute, as the import and
// `updated_after` do; `new Date()` made it an invalid date, and the request a 500.
describe('a leap second in a date-time of a request', () => {
  it('in expires_at of a new key: 201, the key expiring at :59.999', async () => {
    const server = await startTestServerForThisTest();
    const workspace = await createTestWorkspace(server.store);
    const call = adminClient(server.url, workspace.workspaceId, (await createTestMemberToken(server.store, workspace)).token);
    const res = await call({ method: 'POST', path: '/api-keys', body: { name: 'Leap', expires_at: '2030-06-30T23:59:60Z' } });
    expect([res.status, (res.body as { data?: { api_key?: { expires_at?: string } } }).data?.api_key?.expires_at], res.text.slice(0, 300)).toEqual([201, '2030-06-30T23:59:59.999Z']);
    // The same leap second written at an offset, as RFC 3339 allows.
    const atOffset = await call({ method: 'POST', path: '/api-keys', body: { name: 'Leap at +01:00', expires_at: '2030-07-01T00:59:60+01:00' } });
    expect([atOffset.status, (atOffset.body as { data?: { api_key?: { expires_at?: string } } }).data?.api_key?.expires_at], atOffset.text.slice(0, 300))
      .toEqual([201, '2030-06-30T23:59:59.999Z']);
  });

  it('in since of a recovery: 202', async () => {
    const server = await startTestServerForThisTest();
    const workspace = await createTestWorkspace(server.store);
    const call = adminClient(server.url, workspace.workspaceId, (await createTestMemberToken(server.store, workspace)).token);
    const { id } = await createTestWebhook(server.store, workspace, { url: 'http://127.0.0.1:9/hooks' });
    const res = await call({ method: 'POST', path: `/webhooks/${id}/deliveries/recover`, body: { since: '2016-12-31T23:59:60Z' } });
    expect([res.status, (res.body as { data?: unknown }).data], res.text.slice(0, 300)).toEqual([202, { recovered: 0 }]);
  });
});
