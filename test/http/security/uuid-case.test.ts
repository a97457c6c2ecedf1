// walks-operations: asks every operation of the contract (test/scaffold/ runs it after adding an endpoint)
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { send, type ObservedResponse } from '../../support/http.js';
import { categoryLine, promptLine, snapshotLine } from '../../support/import-records.js';
import { useTestServer } from '../../support/test-server.js';
import { Contract } from '../../contract/framework/spec.js';
import { importRecords } from '../../support/visibility.js';

const NOW = new Date('2026-11-22T12:00:00.000Z');
// A UUID with at least one letter in upper case, anywhere in a body.
const UPPER_UUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g;

const server = useTestServer({ now: () => NOW, allowPrivateWebhookTargets: true });

const upper = (id: string) => id.toUpperCase();
/** `3f2b…` → `3F2b…`: every other letter in upper case. */
const mixed = (id: string) => [...id].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c)).join('');

/** The answer without what differs between two requests by design (the request id). */
function comparable(res: ObservedResponse) {
  return { status: res.status, body: res.body };
}

function expectLowerCaseIds(res: ObservedResponse): void {
  const ids = res.text.match(UPPER_UUID) ?? [];
  expect(ids.filter((id) => id !== id.toLowerCase()), 'ids in the response').toEqual([]);
}

describe('UUIDs in any letter case (RFC 9562)', () => {
  it('the read API finds a prompt, an answer and the records a filter names by an upper- or mixed-case id, and answers in lower case', async () => {
    const ws = await createTestWorkspace(server.store);
    const category = categoryLine();
    const prompt = promptLine({ category_id: category.id });
    const answer = snapshotLine({ prompt_id: prompt.id, collected_at: '2026-11-21T08:00:00.000Z' });
    // The import takes ids and references in any case too, and stores them in lower case.
    await importRecords(server.store, ws, [
      categoryLine({ id: upper(category.id) }),
      promptLine({ ...prompt.record, id: mixed(prompt.id), category_id: upper(category.id) }),
      snapshotLine({ ...answer.record, id: upper(answer.id), prompt_id: mixed(prompt.id) }),
    ]);
    const get = (path: string, query: Record<string, string> = {}) => send(server.url, { path, query, key: ws.key });

    const requests: Array<[path: (id: (s: string) => string) => string, query: (id: (s: string) => string) => Record<string, string>]> = [
      [(id) => `/api/v1/visibility/prompts/${id(prompt.id)}`, () => ({ range: '7d' })],
      [(id) => `/api/v1/visibility/answers/${id(answer.id)}`, () => ({})],
      [() => '/api/v1/visibility/prompts', (id) => ({ category_id: id(category.id), range: '7d' })],
      [() => '/api/v1/visibility/answers', (id) => ({ prompt: id(prompt.id), range: '7d' })],
      [() => '/api/v1/visibility/exports/answers.ndjson', (id) => ({ prompt: id(prompt.id), range: '7d' })],
    ];
    for (const [path, query] of requests) {
      const lower = await get(path((s) => s), query((s) => s));
      expect(lower.status, lower.text).toBe(200);
      expect(lower.text).toContain(prompt.id);
      for (const spelling of [upper, mixed]) {
        const res = await get(path(spelling), query(spelling));
        expect(comparable(res), `${path(spelling)} ${JSON.stringify(query(spelling))}`).toEqual(comparable(lower));
        expect(res.text).toBe(lower.text);
        expectLowerCaseIds(res);
      }
    }
  });

  it('the administration API treats an upper-case workspace id as the workspace: members, webhooks, keys', async () => {
    const ws = await createTestWorkspace(server.store);
    const { token } = await createTestMemberToken(server.store, ws);
    const lowerCall = adminClient(server.url, ws.workspaceId, token);
    const upperCall = adminClient(server.url, upper(ws.workspaceId), token);

    const members = await upperCall({ path: '/members' });
    expect(comparable(members)).toEqual(comparable(await lowerCall({ path: '/members' })));
    expect((members.body as { data: { items: unknown[] } }).data.items).toHaveLength(1);

    const created = await upperCall({
      method: 'POST',
      path: '/webhooks',
      body: { url: 'http://127.0.0.1:9/hook', name: 'Receiver', events: ['content.status_updated'] },
    });
    expect(created.status, created.text).toBe(201);
    expectLowerCaseIds(created);
    const webhookId = (created.body as { data: { webhook: { id: string } } }).data.webhook.id;

    for (const path of [`/webhooks/${webhookId}`, `/webhooks/${webhookId}/deliveries`, '/webhooks', '/api-keys']) {
      const lower = await lowerCall({ path });
      expect(lower.status, `${path}: ${lower.text}`).toBe(200);
      for (const spelling of [upper, mixed]) {
        const res = await adminClient(server.url, spelling(ws.workspaceId), token)({ path: path.replace(webhookId, spelling(webhookId)) });
        expect(comparable(res), path).toEqual(comparable(lower));
        expectLowerCaseIds(res);
      }
    }

    const patched = await upperCall({ method: 'PATCH', path: `/webhooks/${upper(webhookId)}`, body: { name: 'Renamed' } });
    expect([patched.status, (patched.body as { data: { id: string; name: string } }).data]).toMatchObject([200, { id: webhookId, name: 'Renamed' }]);
    const revoked = await upperCall({ method: 'DELETE', path: `/api-keys/${upper(ws.keyId)}` });
    expect(revoked.status, revoked.text).toBe(200);
    expect((await send(server.url, { path: '/api/v1/me', key: ws.key })).status).toBe(401);
  });

  it('no request body of the contract declares a `format: uuid` field: the URL is where ids arrive to be lower-cased', () => {
    const contract = new Contract();
    type Schema = { $ref?: string; format?: string; properties?: Record<string, Schema>; items?: Schema; oneOf?: Schema[]; anyOf?: Schema[] };
    const declaresUuid = (node: Schema): boolean => {
      const schema = contract.resolve(node);
      return schema.format === 'uuid'
        || [...Object.values(schema.properties ?? {}), ...(schema.items ? [schema.items] : []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])].some(declaresUuid);
    };
    const withUuidInBody = contract.operations.filter((op) => {
      const requestBody = (contract.document.paths[op.path]?.[op.method] as { requestBody?: { $ref?: string; content?: Record<string, { schema?: Schema }> } }).requestBody;
      const schema = requestBody ? contract.resolve(requestBody).content?.['application/json']?.schema : undefined;
      return schema !== undefined && declaresUuid(schema);
    });
    expect(withUuidInBody.map((op) => op.operationId)).toEqual([]);
  });
});
