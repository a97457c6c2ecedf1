import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../../contract/framework/spec.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { send } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

interface Parameter { $ref?: string; name?: string; in?: string; schema?: { $ref?: string; type?: unknown; minimum?: number; maximum?: number } }

const contract = new Contract();
/** Every operation with a query parameter the contract types `integer`, read from the bundled contract. */
const integerParameters = contract.operations.flatMap((op) => {
  const item = contract.document.paths[op.path] as { parameters?: Parameter[] } & Record<string, { parameters?: Parameter[] }>;
  const parameters = [...(item.parameters ?? []), ...(item[op.method]?.parameters ?? [])].map((p) => contract.resolve(p));
  return parameters
    .filter((p) => p.in === 'query' && contract.resolve(p.schema ?? {}).type === 'integer')
    .map((p) => ({ op, name: p.name!, schema: contract.resolve(p.schema!) }));
});

// What `Number()`, JSON-schema coercion or a careless client read as a number, but a person did not write as one.
const NOT_PLAIN_DIGITS = ['Infinity', '-Infinity', '1e400', '1e309', '0x10', '0b1', '0o7', '1e1', '1e3', ' 1', '1 ', '5.0', '+5', '-0', '-5', '5_0', '٥', 'NaN'];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ allowPrivateWebhookTargets: true });
});
afterAll(async () => {
  await server.close();
});

/** A workspace whose owner can call every operation, and a request for `op` with real ids in its path. */
async function world() {
  const workspace = await createTestWorkspace(server.store);
  const { token } = await createTestMemberToken(server.store, workspace);
  const call = adminClient(server.url, workspace.workspaceId, token);
  const created = await call({ method: 'POST', path: '/webhooks', body: { url: 'http://127.0.0.1:9/hook', name: 'Receiver', events: ['content.status_updated'] } });
  expect(created.status).toBe(201);
  const webhookId = (created.body as { data: { webhook: { id: string } } }).data.webhook.id;
  return (path: string, query: Record<string, string>) => {
    const concrete = path
      .replace('{workspace_id}', workspace.workspaceId)
      .replace('{webhook_id}', webhookId)
      .replace(/\{[^}]+\}/g, () => randomUUID());
    return send(server.url, { path: concrete, query, key: path.startsWith('/api/v1/') ? workspace.key : token });
  };
}

describe('integer query parameters of every operation', () => {
  it('covers every list of the contract: at least the 13 read lists and 4 administration lists it had when written', () => {
    // Lists added to the contract later join automatically; the floor proves the walk finds them.
    const lists = integerParameters.filter((p) => p.name === 'limit');
    expect(lists.filter((p) => p.op.path.startsWith('/api/v1/')).length).toBeGreaterThanOrEqual(13);
    expect(lists.filter((p) => p.op.path.startsWith('/api/workspace/')).length).toBeGreaterThanOrEqual(4);
  });

  it('when a value is not plain decimal digits within the documented range, answers 422 naming the parameter', async () => {
    for (const { op, name, schema } of integerParameters) {
      // A workspace per operation: the cases of all of them together exceed one workspace's rate limit.
      const request = await world();
      const expected = {
        code: 4220,
        messages: `Invalid parameters: query.${name} must be a whole number from ${schema.minimum} to ${schema.maximum} in plain decimal digits.`,
        data: { errors: [{ in: 'query', name, message: `must be a whole number from ${schema.minimum} to ${schema.maximum} in plain decimal digits` }] },
      };
      for (const value of [...NOT_PLAIN_DIGITS, String(schema.minimum! - 1), String(schema.maximum! + 1), '9'.repeat(400)]) {
        const res = await request(op.path, { [name]: value });
        expect([res.status, res.body], `${op.operationId} ${name}=${JSON.stringify(value)}`).toEqual([422, expected]);
      }
    }
    // Hundreds of requests one after another: about 14 s on PostgreSQL with the rest of the suite
    // beside it, so three times that before it counts as hung.
  }, 45_000);

  it('when the value is plain decimal digits within the range, answers as documented', async () => {
    for (const { op, name } of integerParameters) {
      const request = await world();
      for (const value of ['5', '05', '1', '100']) {
        const res = await request(op.path, { [name]: value });
        expect(res.status, `${op.operationId} ${name}=${value}: ${res.text}`).toBe(200);
      }
    }
  });

  it('names a bad integer once, together with every other bad parameter', async () => {
    const request = await world();
    const res = await request('/api/v1/visibility/prompts', { limit: '1e3', range: '1y' });
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
