import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';

// Every value of every integer query parameter is checked without a server, in
// test/unit/http/validation/query-numbers.test.ts; here, that the check is mounted for a read list and an
// administration list, and how its finding joins the validator's in one 422.

const server = useTestServer({ allowPrivateWebhookTargets: true });

const notPlainDigits = (name: string) => ({
  code: 4220,
  messages: `Invalid parameters: query.${name} must be a whole number from 1 to 100 in plain decimal digits.`,
  data: { errors: [{ in: 'query', name, message: 'must be a whole number from 1 to 100 in plain decimal digits' }] },
});

describe('integer query parameters', () => {
  it('when a value is not plain decimal digits within the documented range, answers 422 naming the parameter, on the read API and the administration API', async () => {
    const workspace = await createTestWorkspace(server.store);
    const { token } = await createTestMemberToken(server.store, workspace);
    const read = (limit: string) => send(server.url, { path: '/api/v1/visibility/prompts', query: { limit }, key: workspace.key });
    const admin = (limit: string) => send(server.url, { path: `/api/workspace/${workspace.workspaceId}/api-keys`, query: { limit }, key: token });
    // 0x10 and 1e1 pass the validator's Number() coercion; 101 and 1e3 it refuses itself, and its finding is replaced.
    for (const [call, value] of [[read, '0x10'], [read, '101'], [read, '1e3'], [admin, '1e1'], [admin, '0']] as const) {
      const res = await call(value);
      expect([res.status, res.body], `limit=${value}`).toEqual([422, notPlainDigits('limit')]);
    }
    for (const call of [read, admin]) expect((await call('05')).status).toBe(200);
  });

  it('names a bad integer once, together with every other bad parameter', async () => {
    const workspace = await createTestWorkspace(server.store);
    const res = await send(server.url, { path: '/api/v1/visibility/prompts', query: { limit: '1e3', range: '1y' }, key: workspace.key });
    expect(res.status).toBe(422);
    const { messages } = res.body as { messages: string };
    expect(messages).toContain('query.range');
    expect(messages.match(/query\.limit/g)).toEqual(['query.limit']);
    expect(messages).toContain('query.limit must be a whole number from 1 to 100 in plain decimal digits');
  });
});

describe('integers in a JSON body of the administration API', () => {
  it('are JSON numbers: a string, a boolean or null is 422 naming the field, never coerced', async () => {
    const workspace = await createTestWorkspace(server.store);
    const { token } = await createTestMemberToken(server.store, workspace);
    const call = adminClient(server.url, workspace.workspaceId, token);
    const created = await call({ method: 'POST', path: '/webhooks', body: { url: 'http://127.0.0.1:9/hook', name: 'Receiver', events: ['content.status_updated'] } });
    const webhookId = (created.body as { data: { webhook: { id: string } } }).data.webhook.id;
    for (const value of ['5', true, null, '0x10', 1.5, -1]) {
      const res = await call({ method: 'POST', path: `/webhooks/${webhookId}/rotate-secret`, body: { grace_period_seconds: value } });
      expect([res.status, (res.body as { code: number }).code], `grace_period_seconds=${JSON.stringify(value)}`).toEqual([422, 4220]);
      expect((res.body as { messages: string }).messages).toContain('body.grace_period_seconds');
    }
    const fine = await call({ method: 'POST', path: `/webhooks/${webhookId}/rotate-secret`, body: { grace_period_seconds: 60 } });
    expect(fine.status).toBe(200);
  });
});
