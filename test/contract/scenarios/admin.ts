// The administration API (`/api/workspace/{workspace_id}/...`): every operation with every status
// it documents. The framework adds the generic 401, 405, 422 (unknown parameter), 429 and 500 from
// each success request; these scenarios give the rest. Requests carry a member token of
// `ctx.workspace`'s owner; webhooks are written straight to the store where a test only needs one
// to exist, because the contract server refuses private targets as production does.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { createTestMember, createTestKey, type TestWorkspace } from '../../support/accounts.js';
import { createTestMemberToken } from '../../support/admin.js';
import { createTestWebhook } from '../../support/webhooks.js';
import { SAMPLE_EVENT_DATA } from '../../../src/webhooks/delivery/samples.js';
import { send, type ObservedResponse } from '../../support/http.js';
import { expectFieldNamed } from '../framework/field-errors.js';
import { Contract } from '../framework/spec.js';
import type { OperationScenario, RequestSpec, ScenarioContext } from './types.js';

/** Where the contract server may not send anything: saved directly, refused at connect time. */
const PRIVATE_URL = 'http://127.0.0.1:9/hooks';
/** Passes the save-time check with the switch off, with no name to resolve. */
const PUBLIC_URL = 'https://93.184.216.34/hooks';

const base = (ws: TestWorkspace) => `/api/workspace/${ws.workspaceId}`;

/** A request of the workspace owner through a fresh member token. */
async function asOwner(ctx: ScenarioContext, path: string, spec: Omit<RequestSpec, 'path'> = {}): Promise<RequestSpec> {
  return { ...spec, path: `${base(ctx.workspace)}${path}`, key: (await createTestMemberToken(ctx.store, ctx.workspace)).token };
}

/** The same request by a member who is not an owner. */
async function asMember(ctx: ScenarioContext, path: string, spec: Omit<RequestSpec, 'path'> = {}): Promise<RequestSpec> {
  const memberId = await createTestMember(ctx.store, ctx.workspace, 'member');
  return { ...spec, path: `${base(ctx.workspace)}${path}`, key: (await createTestMemberToken(ctx.store, ctx.workspace, memberId)).token };
}

/** The owner's request with another workspace's id in the path: 404 like an unknown workspace. */
async function inOtherWorkspace(ctx: ScenarioContext, path: string, spec: Omit<RequestSpec, 'path'> = {}): Promise<RequestSpec> {
  return { ...await asOwner(ctx, path, spec), path: `${base(ctx.other)}${path}` };
}

const webhookOf = async (ctx: ScenarioContext, ws: TestWorkspace = ctx.workspace) => (await createTestWebhook(ctx.store, ws, { url: PRIVATE_URL })).id;

/** A webhook of the workspace with one pending delivery; answers both ids. */
async function deliveryOf(ctx: ScenarioContext, ws: TestWorkspace = ctx.workspace): Promise<{ webhookId: string; deliveryId: string }> {
  const webhookId = await webhookOf(ctx, ws);
  await ctx.store.webhookDeliveries.enqueueEvent({ workspaceId: ws.workspaceId, type: 'topic.status_updated', data: SAMPLE_EVENT_DATA['topic.status_updated'] });
  const [delivery] = await ctx.store.webhookDeliveries.list({
    workspace_id: ws.workspaceId, webhook_id: webhookId, event_type: null, status: null, after: null, limit: 1,
  });
  return { webhookId, deliveryId: delivery!.id };
}

const notFound = (what: string) => (res: { body: unknown }) => expect(res.body).toEqual({ code: 4040, messages: `${what} not found.`, data: null });
const roleRefused = (res: { body: unknown }) =>
  expect(res.body).toEqual({ code: 4030, messages: 'Only owners of the workspace can do this; your role is member.', data: null });
const invalid = (res: ObservedResponse) => expectFieldNamed(res, /^(path|query|body)\b/);

/** The 403/404/422 every owners-only operation on one webhook answers. */
function webhookRefusals(suffix: string, method: string, body?: unknown): OperationScenario['statuses'] {
  const spec = { method, ...(body === undefined ? {} : { body }) };
  return {
    403: async (ctx) => asMember(ctx, `/webhooks/${await webhookOf(ctx)}${suffix}`, spec),
    404: {
      'the webhook is unknown': (ctx) => asOwner(ctx, `/webhooks/${randomUUID()}${suffix}`, spec),
      'the webhook belongs to another workspace': async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx, ctx.other)}${suffix}`, spec),
      'the path names another workspace': async (ctx) => inOtherWorkspace(ctx, `/webhooks/${await webhookOf(ctx)}${suffix}`, spec),
    },
    422: {
      'the webhook id is not a UUID': (ctx) => asOwner(ctx, `/webhooks/12345${suffix}`, spec),
      'the workspace id is not a UUID': async (ctx) => ({ ...await asOwner(ctx, `/webhooks/${await webhookOf(ctx)}${suffix}`, spec), path: `/api/workspace/nope/webhooks/${randomUUID()}${suffix}` }),
    },
  };
}

/** The 403/404/422 every owners-only operation on one delivery answers (`suffix` after the delivery id). */
function deliveryRefusals(suffix: string, method: string): OperationScenario['statuses'] {
  return {
    403: async (ctx) => {
      const { webhookId, deliveryId } = await deliveryOf(ctx);
      return asMember(ctx, `/webhooks/${webhookId}/deliveries/${deliveryId}${suffix}`, { method });
    },
    404: {
      'the delivery is unknown': async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}/deliveries/${randomUUID()}${suffix}`, { method }),
      'the delivery belongs to another workspace': async (ctx) => {
        const foreign = await deliveryOf(ctx, ctx.other);
        return asOwner(ctx, `/webhooks/${await webhookOf(ctx)}/deliveries/${foreign.deliveryId}${suffix}`, { method });
      },
      'the webhook is unknown': (ctx) => asOwner(ctx, `/webhooks/${randomUUID()}/deliveries/${randomUUID()}${suffix}`, { method }),
    },
    422: { 'the delivery id is not a UUID': async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}/deliveries/abc${suffix}`, { method }) },
  };
}

const deliveryRefusalExpectations = {
  403: roleRefused,
  404: (res: { body: unknown }) => expect(res.body).toEqual({ code: 4040, messages: expect.stringMatching(/^(Delivery|Webhook) not found\.$/), data: null }),
  422: invalid,
};

const webhookExpect = (code: number) => ({
  403: roleRefused,
  422: invalid,
  [code]: (res: { body: unknown }) => expect(res.body).toMatchObject({ code: 2000, data: { url: PRIVATE_URL } }),
});

const scenarios: OperationScenario[] = [
  {
    operationId: 'listWebhookEvents',
    statuses: {
      200: {
        'an owner asks': (ctx) => asOwner(ctx, '/webhooks/events'),
        'a member asks': (ctx) => asMember(ctx, '/webhooks/events'),
        'an API key with no scopes asks': async (ctx) => ({ path: `${base(ctx.workspace)}/webhooks/events`, key: (await createTestKey(ctx.store, ctx.workspace, { scopes: [] })).key }),
      },
      404: {
        'the path names another workspace': (ctx) => inOtherWorkspace(ctx, '/webhooks/events'),
        'an API key asks for another workspace': (ctx) => ({ path: `${base(ctx.other)}/webhooks/events` }),
      },
      422: { 'the workspace id is not a UUID': async (ctx) => ({ ...await asOwner(ctx, ''), path: '/api/workspace/not-a-uuid/webhooks/events' }) },
    },
    expect: {
      200: (res) => {
        const { code, data } = res.body as { code: number; data: Array<{ event: string; group: string }> };
        expect(code).toBe(8010);
        expect(data.map((e) => [e.event, e.group])).toEqual([
          ['content.status_updated', 'content'],
          ['research_batch.status_updated', 'research_batch'],
          ['agent_task.status_updated', 'agent_task'],
          ['topic.status_updated', 'topic'],
          ['iq.status_updated', 'iq'],
          ['sitemap_url.status_updated', 'sitemap_url'],
        ]);
      },
      404: notFound('Workspace'),
      422: invalid,
    },
  },
  {
    operationId: 'listWebhooks',
    statuses: {
      200: async (ctx) => {
        await webhookOf(ctx);
        return asOwner(ctx, '/webhooks', { query: { limit: 10 } });
      },
      403: (ctx) => asMember(ctx, '/webhooks'),
      404: (ctx) => inOtherWorkspace(ctx, '/webhooks'),
      422: {
        'limit is 0': (ctx) => asOwner(ctx, '/webhooks', { query: { limit: 0 } }),
        'the cursor was altered': (ctx) => asOwner(ctx, '/webhooks', { query: { cursor: 'bm90LWEtY3Vyc29y.AAAA' } }),
      },
    },
    expect: {
      200: (res) => expect(res.body).toEqual({ code: 2000, messages: 'OK', data: { items: [expect.objectContaining({ url: PRIVATE_URL })], next_cursor: null } }),
      403: roleRefused,
      404: notFound('Workspace'),
      422: invalid,
    },
  },
  {
    operationId: 'createWebhook',
    statuses: {
      201: (ctx) => asOwner(ctx, '/webhooks', { method: 'POST', body: { url: PUBLIC_URL, name: 'CRM sync', events: ['content.status_updated'] } }),
      403: (ctx) => asMember(ctx, '/webhooks', { method: 'POST', body: { url: PUBLIC_URL, name: 'CRM sync', events: ['content.status_updated'] } }),
      404: (ctx) => inOtherWorkspace(ctx, '/webhooks', { method: 'POST', body: { url: PUBLIC_URL, name: 'CRM sync', events: ['content.status_updated'] } }),
      422: {
        'the URL targets a loopback address': (ctx) => asOwner(ctx, '/webhooks', { method: 'POST', body: { url: 'https://[::ffff:127.0.0.1]/x', name: 'x', events: ['content.status_updated'] } }),
        'fields are missing, unknown and invalid': (ctx) => asOwner(ctx, '/webhooks', { method: 'POST', body: { url: 'nope', events: ['nope'], extra: true } }),
      },
    },
    expect: {
      201: (res) => expect(res.body).toMatchObject({ code: 2010, data: { webhook: { url: PUBLIC_URL, enabled: true }, secret: expect.stringMatching(/^whsec_/) } }),
      403: roleRefused,
      404: notFound('Workspace'),
      422: (res) => expect((res.body as { messages: string }).messages).toContain('body.'),
    },
  },
  {
    operationId: 'getWebhook',
    statuses: { 200: async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}`), ...webhookRefusals('', 'GET') },
    expect: { ...webhookExpect(200) },
  },
  {
    operationId: 'updateWebhook',
    statuses: {
      200: async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}`, { method: 'PATCH', body: { events: ['iq.status_updated'] } }),
      ...webhookRefusals('', 'PATCH', { name: 'Renamed' }),
      422: {
        'the body sets nothing': async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}`, { method: 'PATCH', body: {} }),
        'the body has an unknown field': async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}`, { method: 'PATCH', body: { secret: 'whsec_x' } }),
        'the webhook id is not a UUID': (ctx) => asOwner(ctx, '/webhooks/12345', { method: 'PATCH', body: { name: 'x' } }),
      },
    },
    expect: {
      ...webhookExpect(200),
      200: (res) => expect(res.body).toMatchObject({ code: 2000, data: { events: ['iq.status_updated'] } }),
    },
  },
  {
    operationId: 'deleteWebhook',
    statuses: {
      200: async (ctx) => {
        const id = await webhookOf(ctx);
        return asOwner(ctx, `/webhooks/${id}`, { method: 'DELETE' });
      },
      ...webhookRefusals('', 'DELETE'),
    },
    expect: {
      200: (res) => expect(res.body).toEqual({ code: 2040, messages: 'Deleted.', data: { id: expect.any(String), deleted: true } }),
      403: roleRefused,
      422: invalid,
    },
  },
  {
    operationId: 'enableWebhook',
    statuses: { 200: async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}/enable`, { method: 'POST' }), ...webhookRefusals('/enable', 'POST') },
    expect: { ...webhookExpect(200), 200: (res) => expect(res.body).toMatchObject({ code: 2000, data: { enabled: true, consecutive_failures: 0 } }) },
  },
  {
    operationId: 'disableWebhook',
    statuses: { 200: async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}/disable`, { method: 'POST' }), ...webhookRefusals('/disable', 'POST') },
    expect: { ...webhookExpect(200), 200: (res) => expect(res.body).toMatchObject({ code: 2000, data: { enabled: false, disabled_at: expect.any(String) } }) },
  },
  {
    operationId: 'rotateWebhookSecret',
    statuses: {
      200: {
        'without a body': async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}/rotate-secret`, { method: 'POST' }),
        'with a grace period': async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}/rotate-secret`, { method: 'POST', body: { grace_period_seconds: 60 } }),
      },
      ...webhookRefusals('/rotate-secret', 'POST'),
      422: { 'the grace period is negative': async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}/rotate-secret`, { method: 'POST', body: { grace_period_seconds: -1 } }) },
    },
    expect: {
      200: (res) => expect(res.body).toMatchObject({ code: 2000, data: { secret: expect.stringMatching(/^whsec_/), webhook: { previous_secret_expires_at: expect.any(String) } } }),
      403: roleRefused,
      422: invalid,
    },
  },
  {
    operationId: 'testWebhook',
    statuses: {
      200: async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}/test`, { method: 'POST', body: { event: 'topic.status_updated' } }),
      ...webhookRefusals('/test', 'POST', { event: 'topic.status_updated' }),
      422: { 'the event is unknown': async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}/test`, { method: 'POST', body: { event: 'topic.deleted' } }) },
    },
    expect: {
      // The contract server refuses private targets at connect time, as production does.
      200: (res) => expect(res.body).toMatchObject({ code: 2000, data: { event: 'topic.status_updated', success: false, http_status: null } }),
      403: roleRefused,
      422: invalid,
    },
  },
  {
    operationId: 'listWebhookDeliveries',
    statuses: {
      200: async (ctx) => asOwner(ctx, `/webhooks/${(await deliveryOf(ctx)).webhookId}/deliveries`, { query: { status: 'pending', event_type: 'topic.status_updated' } }),
      ...webhookRefusals('/deliveries', 'GET'),
      422: { 'the status filter is unknown': async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}/deliveries`, { query: { status: 'lost' } }) },
    },
    expect: {
      200: (res) => expect(res.body).toMatchObject({ code: 2000, data: { items: [{ event_type: 'topic.status_updated', delivery_status: 'pending' }], next_cursor: null } }),
      403: roleRefused,
      422: invalid,
    },
  },
  {
    operationId: 'getWebhookDelivery',
    statuses: {
      200: async (ctx) => {
        const { webhookId, deliveryId } = await deliveryOf(ctx);
        return asOwner(ctx, `/webhooks/${webhookId}/deliveries/${deliveryId}`);
      },
      ...deliveryRefusals('', 'GET'),
    },
    expect: {
      200: (res) => expect(res.body).toMatchObject({
        code: 2000,
        data: { event_type: 'topic.status_updated', delivery_status: 'pending', next_attempt_at: expect.any(String), attempts: [] },
      }),
      ...deliveryRefusalExpectations,
    },
  },
  {
    operationId: 'redeliverWebhookDelivery',
    statuses: {
      202: async (ctx) => {
        const { webhookId, deliveryId } = await deliveryOf(ctx);
        return asOwner(ctx, `/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, { method: 'POST' });
      },
      ...deliveryRefusals('/redeliver', 'POST'),
    },
    expect: {
      202: (res) => expect(res.body).toMatchObject({ code: 2020, data: { delivery_status: 'pending' } }),
      ...deliveryRefusalExpectations,
    },
  },
  {
    operationId: 'recoverWebhookDeliveries',
    statuses: {
      202: async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}/deliveries/recover`, { method: 'POST', body: { since: '2026-01-01T00:00:00Z' } }),
      ...webhookRefusals('/deliveries/recover', 'POST', { since: '2026-01-01T00:00:00Z' }),
      422: { 'since is not a date-time': async (ctx) => asOwner(ctx, `/webhooks/${await webhookOf(ctx)}/deliveries/recover`, { method: 'POST', body: { since: 'yesterday' } }) },
    },
    expect: {
      202: (res) => expect(res.body).toEqual({ code: 2020, messages: '0 failed deliveries queued again.', data: { recovered: 0 } }),
      403: roleRefused,
      422: invalid,
    },
  },
  {
    operationId: 'listApiKeys',
    statuses: {
      200: (ctx) => asOwner(ctx, '/api-keys'),
      403: (ctx) => asMember(ctx, '/api-keys'),
      404: (ctx) => inOtherWorkspace(ctx, '/api-keys'),
      422: { 'limit is 101': (ctx) => asOwner(ctx, '/api-keys', { query: { limit: 101 } }) },
    },
    expect: {
      200: (res, ctx) => expect(res.body).toMatchObject({ code: 2000, data: { items: [{ id: ctx.workspace.keyId, revoked_at: null }], next_cursor: null } }),
      403: roleRefused,
      404: notFound('Workspace'),
      422: invalid,
    },
  },
  {
    operationId: 'createApiKey',
    statuses: {
      201: (ctx) => asOwner(ctx, '/api-keys', { method: 'POST', body: { name: 'Dashboard', scopes: ['visibility:read'] } }),
      403: (ctx) => asMember(ctx, '/api-keys', { method: 'POST', body: { name: 'Dashboard' } }),
      404: (ctx) => inOtherWorkspace(ctx, '/api-keys', { method: 'POST', body: { name: 'Dashboard' } }),
      422: {
        'the scope is unknown': (ctx) => asOwner(ctx, '/api-keys', { method: 'POST', body: { name: 'x', scopes: ['admin'] } }),
        'the expiry is past': (ctx) => asOwner(ctx, '/api-keys', { method: 'POST', body: { name: 'x', expires_at: '2020-01-01T00:00:00Z' } }),
        'the Idempotency-Key was first used with another body': async (ctx) => {
          const first = await asOwner(ctx, '/api-keys', { method: 'POST', body: { name: 'First' }, headers: { 'Idempotency-Key': randomUUID() } });
          expect((await send(ctx.server.url, first)).status).toBe(201);
          return { ...first, body: { name: 'Second' } };
        },
        'the Idempotency-Key is longer than 255 characters': (ctx) =>
          asOwner(ctx, '/api-keys', { method: 'POST', body: { name: 'x' }, headers: { 'Idempotency-Key': 'k'.repeat(256) } }),
      },
    },
    expect: {
      201: (res, ctx) => expect(res.body).toMatchObject({
        code: 2010,
        data: { key: expect.stringMatching(/^wsk_live_/), api_key: { name: 'Dashboard', scopes: ['visibility:read'], created_by: ctx.workspace.ownerId } },
      }),
      403: roleRefused,
      404: notFound('Workspace'),
      422: (res) => {
        if ((res.body as { code: number }).code === 4221) expect(res.body).toMatchObject({ data: { errors: [{ in: 'header', name: 'Idempotency-Key' }] } });
        else expectFieldNamed(res, /^(path|query|body|header)\b/);
      },
    },
  },
  {
    operationId: 'revokeApiKey',
    statuses: {
      200: (ctx) => asOwner(ctx, `/api-keys/${ctx.workspace.keyId}`, { method: 'DELETE' }),
      403: (ctx) => asMember(ctx, `/api-keys/${ctx.workspace.keyId}`, { method: 'DELETE' }),
      404: {
        'the key is unknown': (ctx) => asOwner(ctx, `/api-keys/${randomUUID()}`, { method: 'DELETE' }),
        'the key belongs to another workspace': (ctx) => asOwner(ctx, `/api-keys/${ctx.other.keyId}`, { method: 'DELETE' }),
      },
      422: { 'the key id is not a UUID': (ctx) => asOwner(ctx, '/api-keys/key-1', { method: 'DELETE' }) },
    },
    expect: {
      200: (res, ctx) => expect(res.body).toMatchObject({ code: 2000, data: { id: ctx.workspace.keyId, revoked_at: expect.any(String) } }),
      403: roleRefused,
      404: notFound('API key'),
      422: invalid,
    },
  },
  {
    operationId: 'updateApiKey',
    statuses: {
      200: async (ctx) => asOwner(ctx, `/api-keys/${(await createTestKey(ctx.store, ctx.workspace)).id}`, { method: 'PATCH', body: { name: 'Renamed', scopes: ['visibility:read'] } }),
      403: (ctx) => asMember(ctx, `/api-keys/${ctx.workspace.keyId}`, { method: 'PATCH', body: { name: 'Renamed' } }),
      404: {
        'the key is unknown': (ctx) => asOwner(ctx, `/api-keys/${randomUUID()}`, { method: 'PATCH', body: { name: 'Renamed' } }),
        'the key belongs to another workspace': (ctx) => asOwner(ctx, `/api-keys/${ctx.other.keyId}`, { method: 'PATCH', body: { name: 'Renamed' } }),
      },
      409: async (ctx) => {
        const { id } = await createTestKey(ctx.store, ctx.workspace);
        await ctx.store.apiKeys.revoke(id, new Date().toISOString());
        return asOwner(ctx, `/api-keys/${id}`, { method: 'PATCH', body: { name: 'Renamed' } });
      },
      422: {
        'the body is empty': (ctx) => asOwner(ctx, `/api-keys/${ctx.workspace.keyId}`, { method: 'PATCH', body: {} }),
        'the scope list is empty': (ctx) => asOwner(ctx, `/api-keys/${ctx.workspace.keyId}`, { method: 'PATCH', body: { scopes: [] } }),
        'a scope the key does not hold': async (ctx) =>
          asOwner(ctx, `/api-keys/${(await createTestKey(ctx.store, ctx.workspace, { scopes: ['iq:read'] })).id}`, { method: 'PATCH', body: { scopes: ['iq:read', 'content:read'] } }),
        'the key id is not a UUID': (ctx) => asOwner(ctx, '/api-keys/key-1', { method: 'PATCH', body: { name: 'Renamed' } }),
      },
    },
    expect: {
      200: (res) => expect(res.body).toMatchObject({ code: 2000, data: { name: 'Renamed', scopes: ['visibility:read'], revoked_at: null } }),
      403: roleRefused,
      404: notFound('API key'),
      409: (res) => expect(res.body).toMatchObject({ code: 4090, data: null }),
      422: invalid,
    },
  },
  {
    operationId: 'listAuditLog',
    statuses: {
      200: async (ctx) => {
        // A refused attempt is an entry: the list has one to show.
        expect((await send(ctx.server.url, await asMember(ctx, '/api-keys'))).status).toBe(403);
        return asOwner(ctx, '/audit-log', { query: { action: 'api_keys.listed' } });
      },
      403: (ctx) => asMember(ctx, '/audit-log'),
      404: (ctx) => inOtherWorkspace(ctx, '/audit-log'),
      422: {
        'the action is unknown': (ctx) => asOwner(ctx, '/audit-log', { query: { action: 'key.stolen' } }),
        'until is not after since': (ctx) => asOwner(ctx, '/audit-log', { query: { since: '2026-11-02T00:00:00Z', until: '2026-11-01T00:00:00Z' } }),
      },
    },
    expect: {
      200: (res) => expect(res.body).toMatchObject({
        code: 2000,
        data: { items: [{ action: 'api_keys.listed', outcome: 'forbidden', actor: { type: 'member' }, object: null }], next_cursor: null },
      }),
      403: roleRefused,
      404: notFound('Workspace'),
      422: invalid,
    },
  },
  {
    operationId: 'getDailyUsage',
    statuses: {
      200: {
        'an owner asks': (ctx) => asOwner(ctx, '/usage/daily', { query: { days: 3 } }),
        'a member asks': (ctx) => asMember(ctx, '/usage/daily', { query: { days: 3 } }),
      },
      404: (ctx) => inOtherWorkspace(ctx, '/usage/daily'),
      422: { 'days is 91': (ctx) => asOwner(ctx, '/usage/daily', { query: { days: 91 } }) },
    },
    expect: {
      200: (res) => {
        const data = (res.body as { data: { items: Array<{ date: string; requests: number }> } }).data;
        expect(data.items.map((d) => d.date)).toEqual([2, 1, 0].map((back) => new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10)));
        expect(res.body).toMatchObject({ code: 2000, data: { rate_limit: { limit: 120, window_seconds: 60 } } });
      },
      404: notFound('Workspace'),
      422: invalid,
    },
  },
  {
    operationId: 'listMembers',
    statuses: {
      200: {
        'an owner asks': (ctx) => asOwner(ctx, '/members'),
        'a member asks': (ctx) => asMember(ctx, '/members'),
      },
      404: (ctx) => inOtherWorkspace(ctx, '/members'),
      422: { 'the cursor is not one': (ctx) => asOwner(ctx, '/members', { query: { cursor: 'x' } }) },
    },
    expect: {
      200: (res, ctx) => expect(res.body).toMatchObject({ code: 2000, data: { items: expect.arrayContaining([expect.objectContaining({ user_id: ctx.workspace.ownerId, role: 'owner' })]) } }),
      404: notFound('Workspace'),
      422: invalid,
    },
  },
  {
    operationId: 'updateMember',
    statuses: {
      200: async (ctx) => asOwner(ctx, `/members/${await createTestMember(ctx.store, ctx.workspace, 'owner')}`, { method: 'PATCH', body: { role: 'member', revoke_keys: true } }),
      403: (ctx) => asMember(ctx, `/members/${ctx.workspace.ownerId}`, { method: 'PATCH', body: { role: 'member' } }),
      404: {
        'the user is not a member': (ctx) => asOwner(ctx, `/members/${ctx.other.ownerId}`, { method: 'PATCH', body: { role: 'member' } }),
        'the path names another workspace': (ctx) => inOtherWorkspace(ctx, `/members/${ctx.other.ownerId}`, { method: 'PATCH', body: { role: 'member' } }),
      },
      409: (ctx) => asOwner(ctx, `/members/${ctx.workspace.ownerId}`, { method: 'PATCH', body: { role: 'member' } }),
      422: {
        'the role is unknown': (ctx) => asOwner(ctx, `/members/${ctx.workspace.ownerId}`, { method: 'PATCH', body: { role: 'admin' } }),
        'the user id is not a UUID': (ctx) => asOwner(ctx, '/members/me', { method: 'PATCH', body: { role: 'member' } }),
      },
    },
    expect: {
      200: (res) => expect(res.body).toMatchObject({ code: 2000, data: { member: { role: 'member' }, api_keys: [] } }),
      403: roleRefused,
      409: (res) => expect(res.body).toMatchObject({ code: 4090, data: null }),
      422: invalid,
    },
  },
  {
    operationId: 'removeMember',
    statuses: {
      200: async (ctx) => asOwner(ctx, `/members/${await createTestMember(ctx.store, ctx.workspace, 'member')}`, { method: 'DELETE' }),
      403: (ctx) => asMember(ctx, `/members/${ctx.workspace.ownerId}`, { method: 'DELETE' }),
      404: {
        'the user is not a member': (ctx) => asOwner(ctx, `/members/${ctx.other.ownerId}`, { method: 'DELETE' }),
        'the path names another workspace': (ctx) => inOtherWorkspace(ctx, `/members/${ctx.other.ownerId}`, { method: 'DELETE' }),
      },
      409: (ctx) => asOwner(ctx, `/members/${ctx.workspace.ownerId}`, { method: 'DELETE' }),
      422: { 'the user id is not a UUID': (ctx) => asOwner(ctx, '/members/me', { method: 'DELETE' }) },
    },
    expect: {
      200: (res) => expect(res.body).toMatchObject({ code: 2040, data: { deleted: true } }),
      403: roleRefused,
      409: (res) => expect(res.body).toMatchObject({ code: 4090, data: null }),
      422: invalid,
    },
  },
];

/** The POSTs whose success answer carries a secret: a retry under the same Idempotency-Key is a 409 (4090). */
const ANSWERING_A_SECRET = new Set(['createApiKey', 'createWebhook', 'rotateWebhookSecret']);

/** The first of a status's ways, as a builder. */
function firstCase(cases: NonNullable<OperationScenario['statuses'][number]>) {
  return typeof cases === 'function' ? cases : Object.values(cases)[0]!;
}

/**
 * Every POST of the administration API takes an Idempotency-Key: its success request under a key
 * another request still holds is a 409 (4091); where the success answer carries a secret, its
 * retry is a 409 (4090).
 */
function withIdempotencyConflicts(scenario: OperationScenario): OperationScenario {
  const successStatus = [200, 201, 202].find((status) => scenario.statuses[status] !== undefined);
  const success = successStatus === undefined ? undefined : scenario.statuses[successStatus];
  if (success === undefined) return scenario;
  const build = firstCase(success);
  const conflicts: Record<string, (ctx: ScenarioContext) => Promise<RequestSpec>> = {
    'a request with the same Idempotency-Key is still running': async (ctx) => {
      const spec = await build(ctx);
      if (spec.method !== 'POST') return spec;
      const key = randomUUID();
      const claimed = await ctx.store.idempotency.claim({ workspaceId: ctx.workspace.workspaceId, key, fingerprint: 'the first request', now: new Date() });
      expect(claimed.outcome).toBe('claimed');
      return { ...spec, headers: { ...spec.headers, 'Idempotency-Key': key } };
    },
  };
  if (ANSWERING_A_SECRET.has(scenario.operationId)) {
    conflicts['the first answer under the Idempotency-Key carried a secret'] = async (ctx) => {
      const spec = await build(ctx);
      const keyed = { ...spec, headers: { ...spec.headers, 'Idempotency-Key': randomUUID() } };
      expect((await send(ctx.server.url, keyed)).status).toBe(successStatus);
      return keyed;
    };
  }
  return {
    ...scenario,
    statuses: { ...scenario.statuses, 409: conflicts },
    expect: {
      ...scenario.expect,
      409: (res) => expect(res.body).toEqual({ code: expect.toBeOneOf([4090, 4091]) as unknown, messages: expect.stringContaining('Idempotency-Key') as unknown, data: null }),
    },
  };
}

/** The operations whose parameters include the Idempotency-Key header, as the contract says. */
const contract = new Contract();
const TAKING_AN_IDEMPOTENCY_KEY = new Set(contract.operations
  .filter((op) => contract.parameters(op).some((p) => p.in === 'header' && p.name === 'Idempotency-Key'))
  .map((op) => op.operationId));

export const adminScenarios: OperationScenario[] = scenarios.map((scenario) =>
  TAKING_AN_IDEMPOTENCY_KEY.has(scenario.operationId) ? withIdempotencyConflicts(scenario) : scenario);
