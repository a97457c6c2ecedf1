// Every administration write of the contract leaves its audit entries (cascades included), in the
// write's own transaction; refusals leave theirs; a replay leaves none; and no entry holds a secret.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestKey, createTestMember } from '../../support/accounts.js';
import { adminClient, createTestMemberToken, type AdminCall, type AdminClient } from '../../support/admin.js';
import { rowsOf } from '../../support/database-rows.js';
import type { ObservedResponse } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { startReceiver, type TestReceiver } from '../../support/webhook-receiver.js';
import { createTestWebhook } from '../../support/webhooks.js';
import { SAMPLE_EVENT_DATA } from '../../../src/webhooks/delivery/samples.js';
import { adminWorld, type AdminWorld } from '../webhooks-admin/helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });
let receiver: TestReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

interface Entry {
  id: string;
  occurred_at: string;
  actor: { type: string; user_id: string | null };
  action: string;
  object: { type: string; id: string | null } | null;
  address: string | null;
  request_id: string | null;
  outcome: string;
}

/** Every entry of the workspace's log, newest first, read through the API page by page. */
async function auditLog(call: AdminClient, query: Record<string, string> = {}): Promise<Entry[]> {
  const entries: Entry[] = [];
  let cursor: string | null = null;
  do {
    const response = await call({ path: '/audit-log', query: { limit: 100, ...query, ...(cursor === null ? {} : { cursor }) } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const data = (response.body as { data: { items: Entry[]; next_cursor: string | null } }).data;
    entries.push(...data.items);
    cursor = data.next_cursor;
  } while (cursor !== null);
  return entries;
}

interface WriteCase {
  /** The request, once whatever it acts on exists. */
  request: (world: AdminWorld) => Promise<AdminCall>;
  /** The entries it must leave (action and object), in the order they were written. */
  entries: (response: ObservedResponse, world: AdminWorld, made: Record<string, string>) => Array<{ action: string; object: { type: string; id: string | null } | null }>;
}

const made: Record<string, string> = {};

const webhook = async (world: AdminWorld): Promise<string> => (await createTestWebhook(server.store, world.workspace, { url: receiver.url })).id;

async function delivery(world: AdminWorld): Promise<{ webhookId: string; deliveryId: string }> {
  const webhookId = await webhook(world);
  await server.store.webhookDeliveries.enqueueEvent({ workspaceId: world.workspace.workspaceId, type: 'topic.status_updated', data: SAMPLE_EVENT_DATA['topic.status_updated'] });
  const [first] = await server.store.webhookDeliveries.list({
    workspace_id: world.workspace.workspaceId, webhook_id: webhookId, event_type: null, status: null, after: null, limit: 1,
  });
  return { webhookId, deliveryId: first!.id };
}

const onWebhook = (action: string, suffix: string, method: string, body?: unknown): WriteCase => ({
  request: async (world) => {
    made.webhook = await webhook(world);
    return { method, path: `/webhooks/${made.webhook}${suffix}`, ...(body === undefined ? {} : { body }) };
  },
  entries: () => [{ action, object: { type: 'webhook', id: made.webhook! } }],
});

/** One case per write operation of the administration API; the test below fails for an operation of the contract missing here. */
const WRITES: Record<string, WriteCase> = {
  createWebhook: {
    request: async () => ({ method: 'POST', path: '/webhooks', body: { url: receiver.url, name: 'Receiver', events: ['content.status_updated'] } }),
    entries: (res) => [{ action: 'webhook.created', object: { type: 'webhook', id: (res.body as { data: { webhook: { id: string } } }).data.webhook.id } }],
  },
  updateWebhook: onWebhook('webhook.updated', '', 'PATCH', { name: 'Renamed' }),
  deleteWebhook: onWebhook('webhook.deleted', '', 'DELETE'),
  enableWebhook: onWebhook('webhook.enabled', '/enable', 'POST'),
  disableWebhook: onWebhook('webhook.disabled', '/disable', 'POST'),
  rotateWebhookSecret: onWebhook('webhook.secret_rotated', '/rotate-secret', 'POST', { grace_period_seconds: 0 }),
  testWebhook: onWebhook('webhook.test_sent', '/test', 'POST'),
  recoverWebhookDeliveries: onWebhook('webhook_deliveries.recovered', '/deliveries/recover', 'POST', { since: '2026-01-01T00:00:00Z' }),
  redeliverWebhookDelivery: {
    request: async (world) => {
      const { webhookId, deliveryId } = await delivery(world);
      made.delivery = deliveryId;
      return { method: 'POST', path: `/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver` };
    },
    entries: () => [{ action: 'webhook_delivery.redelivered', object: { type: 'webhook_delivery', id: made.delivery! } }],
  },
  createApiKey: {
    request: async () => ({ method: 'POST', path: '/api-keys', body: { name: 'Dashboard' } }),
    entries: (res) => [{ action: 'api_key.created', object: { type: 'api_key', id: (res.body as { data: { api_key: { id: string } } }).data.api_key.id } }],
  },
  revokeApiKey: {
    request: async (world) => ({ method: 'DELETE', path: `/api-keys/${world.workspace.keyId}` }),
    entries: (_res, world) => [{ action: 'api_key.revoked', object: { type: 'api_key', id: world.workspace.keyId } }],
  },
  updateApiKey: {
    request: async (world) => ({ method: 'PATCH', path: `/api-keys/${world.workspace.keyId}`, body: { name: 'Renamed' } }),
    entries: (_res, world) => [{ action: 'api_key.updated', object: { type: 'api_key', id: world.workspace.keyId } }],
  },
  updateMember: {
    request: async (world) => {
      made.member = await createTestMember(server.store, world.workspace, 'owner');
      made.memberKey = (await createTestKey(server.store, world.workspace, { userId: made.member })).id;
      return { method: 'PATCH', path: `/members/${made.member}`, body: { role: 'member', revoke_keys: true } };
    },
    entries: () => [
      { action: 'member.role_changed', object: { type: 'member', id: made.member! } },
      { action: 'api_key.revoked', object: { type: 'api_key', id: made.memberKey! } },
    ],
  },
  removeMember: {
    request: async (world) => {
      // An owner: only owners create keys, and the world's owner stays.
      made.member = await createTestMember(server.store, world.workspace, 'owner');
      made.memberKey = (await createTestKey(server.store, world.workspace, { userId: made.member })).id;
      made.memberToken = (await createTestMemberToken(server.store, world.workspace, made.member)).id;
      return { method: 'DELETE', path: `/members/${made.member}` };
    },
    entries: () => [
      { action: 'member.removed', object: { type: 'member', id: made.member! } },
      { action: 'api_key.revoked', object: { type: 'api_key', id: made.memberKey! } },
      { action: 'member_token.revoked', object: { type: 'member_token', id: made.memberToken! } },
    ],
  },
};

/** The administration operations of the published contract that change something (every method but GET). */
function contractWrites(): string[] {
  const document = JSON.parse(readFileSync(new URL('../../../generated/openapi.json', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string; security?: Array<Record<string, unknown>> }>>;
  };
  const ids: string[] = [];
  for (const item of Object.values(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const takesMemberToken = op.security?.some((requirement) => 'MemberToken' in requirement) ?? false;
      if (takesMemberToken && method !== 'get' && method !== 'head' && op.operationId) ids.push(op.operationId);
    }
  }
  return ids.sort();
}

describe('GET /api/workspace/{workspace_id}/audit-log after every administration write', () => {
  it('has a case for every write operation of the contract', () => {
    expect(Object.keys(WRITES).sort()).toEqual(contractWrites());
  });

  for (const operationId of contractWrites()) {
    it(`${operationId}: its entries name the owner, the object, the address and the request id`, async () => {
      const world = await adminWorld(server);
      const write = WRITES[operationId];
      expect(write, `no audit case for ${operationId}`).toBeDefined();
      const requestId = `audit-${randomUUID()}`;
      const call = await write!.request(world);
      const response = await world.call({ ...call, headers: { ...call.headers, 'X-Request-Id': requestId } });
      expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
      const expected = write!.entries(response, world, made);
      const entries = (await auditLog(world.call)).filter((e) => e.request_id === requestId).reverse();
      expect(entries.map(({ action, object }) => ({ action, object }))).toEqual(expected);
      for (const entry of entries) {
        expect(entry).toMatchObject({ actor: { type: 'member', user_id: world.workspace.ownerId }, address: '127.0.0.1', outcome: 'succeeded' });
      }
      expect(new Set(entries.map((e) => e.occurred_at)).size).toBe(1);
    });
  }
});

describe('refused attempts', () => {
  it('when a member who is not an owner tries to revoke a key, the 403 is an entry naming them, the key and `forbidden`', async () => {
    const world = await adminWorld(server);
    const memberId = await createTestMember(server.store, world.workspace, 'member');
    const asMember = adminClient(server.url, world.workspace.workspaceId, (await createTestMemberToken(server.store, world.workspace, memberId)).token);
    expect((await asMember({ method: 'DELETE', path: `/api-keys/${world.workspace.keyId}`, headers: { 'X-Request-Id': 'refused-403' } })).status).toBe(403);
    expect(await auditLog(world.call, { actor: memberId })).toEqual([{
      id: expect.any(String),
      occurred_at: expect.any(String),
      actor: { type: 'member', user_id: memberId },
      action: 'api_key.revoked',
      object: { type: 'api_key', id: world.workspace.keyId },
      address: '127.0.0.1',
      request_id: 'refused-403',
      outcome: 'forbidden',
    }]);
  });

  it('when a member token fails on a path of the workspace, the 401 is an anonymous `authentication.failed`; on an unknown workspace, nothing is written', async () => {
    const world = await adminWorld(server);
    const forged = adminClient(server.url, world.workspace.workspaceId, `wsm_live_${'x'.repeat(40)}`);
    expect((await forged({ path: '/api-keys', headers: { 'X-Request-Id': 'refused-401' } })).status).toBe(401);
    expect((await forged({ path: '/no-such-path' })).status).toBe(401);
    expect((await forged({ path: '/api-keys', token: null })).status).toBe(401);
    const nowhere = randomUUID();
    expect((await forged({ path: '/api-keys', workspaceId: nowhere })).status).toBe(401);
    const failed = await auditLog(world.call, { action: 'authentication.failed' });
    expect(failed.map(({ actor, object, outcome, address }) => ({ actor, object, outcome, address }))).toEqual([
      { actor: { type: 'anonymous', user_id: null }, object: null, outcome: 'failed', address: '127.0.0.1' },
      { actor: { type: 'anonymous', user_id: null }, object: null, outcome: 'failed', address: '127.0.0.1' },
    ]);
    expect(failed[1]!.request_id).toBe('refused-401');
    expect(await rowsOf(server.store, 'SELECT id FROM audit_log WHERE workspace_id = ?', [nowhere])).toEqual([]);
  });
});

describe('Idempotency-Key replays', () => {
  it('when a write is answered again from its Idempotency-Key, no second entry is written', async () => {
    const world = await adminWorld(server);
    const webhookId = await webhook(world);
    const key = randomUUID();
    const first = await world.call({ method: 'POST', path: `/webhooks/${webhookId}/disable`, headers: { 'Idempotency-Key': key } });
    const again = await world.call({ method: 'POST', path: `/webhooks/${webhookId}/disable`, headers: { 'Idempotency-Key': key } });
    expect([first.status, again.status, again.headers.get('Idempotent-Replayed')]).toEqual([200, 200, 'true']);
    const otherKey = randomUUID();
    expect((await world.call({ method: 'POST', path: '/api-keys', body: { name: 'Once' }, headers: { 'Idempotency-Key': otherKey } })).status).toBe(201);
    expect((await world.call({ method: 'POST', path: '/api-keys', body: { name: 'Once' }, headers: { 'Idempotency-Key': otherKey } })).status).toBe(409);
    expect((await auditLog(world.call)).map((e) => e.action)).toEqual(['api_key.created', 'webhook.disabled']);
  });
});

describe('secrets', () => {
  it('no entry holds any key, token or webhook secret this test created, nor the hash of one', async () => {
    const world = await adminWorld(server);
    const secrets: string[] = [world.token, world.workspace.key];
    const memberId = await createTestMember(server.store, world.workspace, 'owner');
    secrets.push((await createTestKey(server.store, world.workspace, { userId: memberId })).key);
    secrets.push((await createTestMemberToken(server.store, world.workspace, memberId)).token);
    const key = await world.call({ method: 'POST', path: '/api-keys', body: { name: 'Secret holder' } });
    secrets.push((key.body as { data: { key: string } }).data.key);
    const hook = await world.call({ method: 'POST', path: '/webhooks', body: { url: receiver.url, name: 'Secret', events: ['content.status_updated'] } });
    const hookData = (hook.body as { data: { webhook: { id: string }; secret: string } }).data;
    secrets.push(hookData.secret);
    const rotated = await world.call({ method: 'POST', path: `/webhooks/${hookData.webhook.id}/rotate-secret` });
    secrets.push((rotated.body as { data: { secret: string } }).data.secret);
    expect((await world.call({ method: 'POST', path: `/webhooks/${hookData.webhook.id}/test` })).status).toBe(200);
    expect((await world.call({ method: 'PATCH', path: `/members/${memberId}`, body: { role: 'member', revoke_keys: true } })).status).toBe(200);
    expect((await world.call({ method: 'DELETE', path: `/members/${memberId}` })).status).toBe(200);
    await adminClient(server.url, world.workspace.workspaceId, `${world.token}x`)({ path: '/api-keys' });

    const rows = await rowsOf(server.store, 'SELECT * FROM audit_log WHERE workspace_id = ?', [world.workspace.workspaceId]);
    expect(rows.length).toBeGreaterThanOrEqual(7);
    const text = JSON.stringify(rows);
    const hashes = secrets.map((s) => createHash('sha256').update(s).digest('hex'));
    for (const secret of [...secrets, ...hashes]) expect(text.includes(secret), `an entry holds ${secret.slice(0, 12)}…`).toBe(false);
    for (const secret of secrets) expect(text.includes(secret.slice(-16)), 'an entry holds the end of a secret').toBe(false);
  });
});

