import { randomUUID } from 'node:crypto';
import { OpenAPIRouter } from 'openapi-backend';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OperationMatcher } from '@workspace-read-api/contract/operation-matcher.js';
import { createTestMember, createTestWorkspace } from '../../support/accounts.js';
import { createTestMemberToken } from '../../support/admin.js';
import { send, type RequestSpec } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';

// Each request is matched to an operation once, and every later step (guards, query rules,
// dispatch) reads that match. The spies count calls to the two routers the service could use:
// ours, and openapi-backend's, which the dispatcher must never ask to route.

const server = useTestServer({ allowPrivateWebhookTargets: true });
afterEach(() => {
  vi.restoreAllMocks();
});

/** Requests of every kind: read and admin, answered by a handler or refused at each step. */
async function requests(): Promise<Array<{ title: string; status: number; spec: RequestSpec }>> {
  const ws = await createTestWorkspace(server.store);
  const owner = (await createTestMemberToken(server.store, ws)).token;
  const member = (await createTestMemberToken(server.store, ws, await createTestMember(server.store, ws, 'member'))).token;
  const admin = `/api/workspace/${ws.workspaceId}`;
  return [
    { title: 'a read answered by its handler', status: 200, spec: { path: '/api/v1/visibility/prompts', key: ws.key } },
    { title: 'a read by id', status: 404, spec: { path: `/api/v1/visibility/prompts/${randomUUID()}`, key: ws.key } },
    { title: 'a read without a key', status: 401, spec: { path: '/api/v1/me', key: null } },
    { title: 'a read with a bad parameter', status: 422, spec: { path: '/api/v1/visibility/prompts', key: ws.key, query: { limit: 'x' } } },
    { title: 'a path no operation has', status: 404, spec: { path: '/api/v1/VISIBILITY/prompts', key: ws.key } },
    { title: 'a method the path does not take', status: 405, spec: { method: 'POST', path: '/api/v1/me', key: ws.key } },
    { title: 'an admin list', status: 200, spec: { path: `${admin}/webhooks`, key: owner } },
    { title: 'an admin write with a body', status: 201, spec: { method: 'POST', path: `${admin}/api-keys`, key: owner, body: { name: 'Counted' } } },
    { title: 'an owner-only operation for a member', status: 403, spec: { path: `${admin}/api-keys`, key: member } },
    { title: 'the event catalog with an API key', status: 200, spec: { path: `${admin}/webhooks/events`, key: ws.key } },
  ];
}

describe('route matching', () => {
  it('matches every request exactly once, and openapi-backend routes none of them', async () => {
    const ours = vi.spyOn(OperationMatcher.prototype, 'match');
    const openapiBackend = vi.spyOn(OpenAPIRouter.prototype, 'matchOperation');
    for (const { title, status, spec } of await requests()) {
      ours.mockClear();
      openapiBackend.mockClear();
      const res = await send(server.url, spec);
      expect([title, res.status]).toEqual([title, status]);
      expect([title, ours.mock.calls.length, openapiBackend.mock.calls.length]).toEqual([title, 1, 0]);
    }
  });
});
