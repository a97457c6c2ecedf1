import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestKey, createTestMember, createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { send } from '../../support/http.js';
import { startTestServerForThisTest, useTestServer } from '../../support/test-server.js';
import { MEMBER_TOKEN_PREFIX } from '../../../src/keys/member-tokens.js';
import { createSecretToken } from '../../../src/keys/secret-token.js';
import { adminWorld, expectRateLimitHeaders, ROLE_FORBIDDEN, TOKEN_INVALID, WORKSPACE_NOT_FOUND } from './helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

describe('/api/workspace/{workspace_id}/... authentication, workspace and role', () => {
  it('when no credential is sent, answers 401 with code 4021', async () => {
    const { call } = await adminWorld(server);
    const response = await call({ path: '/webhooks', token: null });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 4021, messages: 'No credential: send `Authorization: Bearer <member token>` (`wsm_live_…`).', data: null });
  });

  it('when the member token is malformed or unknown, answers 401 with code 4022', async () => {
    const { call } = await adminWorld(server);
    for (const token of [`${MEMBER_TOKEN_PREFIX}nonsense`, createSecretToken(MEMBER_TOKEN_PREFIX)]) {
      const response = await call({ path: '/webhooks', token });
      expect(response.status).toBe(401);
      expect(response.body).toEqual(TOKEN_INVALID);
    }
  });

  it('when the member token is revoked, answers 401 on the very next request', async () => {
    const { call, tokenId } = await adminWorld(server);
    expect((await call({ path: '/webhooks' })).status).toBe(200);
    await server.store.memberTokens.revoke(tokenId, new Date().toISOString());
    const response = await call({ path: '/webhooks' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(TOKEN_INVALID);
  });

  it('when the token\'s user has left the workspace, answers 401', async () => {
    const { workspace } = await adminWorld(server);
    const memberId = await createTestMember(server.store, workspace, 'member');
    const { token } = await createTestMemberToken(server.store, workspace, memberId);
    const asMember = adminClient(server.url, workspace.workspaceId, token);
    expect((await asMember({ path: '/members' })).status).toBe(200);
    await server.store.accounts.deleteMembership(workspace.workspaceId, memberId);
    const response = await asMember({ path: '/members' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(TOKEN_INVALID);
  });

  it('when an API key is sent to an operation other than the event catalog, answers 401 naming member tokens', async () => {
    const { workspace, call } = await adminWorld(server);
    const response = await call({ path: '/webhooks', token: workspace.key });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      code: 4022,
      messages: 'The administration API takes a member token (`Authorization: Bearer wsm_live_…`); API keys reach only the event catalog.',
      data: null,
    });
  });

  it('when a member who is not an owner calls an owners-only operation, answers 403 with code 4030', async () => {
    const { workspace } = await adminWorld(server);
    const memberId = await createTestMember(server.store, workspace, 'member');
    const asMember = adminClient(server.url, workspace.workspaceId, (await createTestMemberToken(server.store, workspace, memberId)).token);
    const refused = [
      { method: 'GET', path: '/webhooks' },
      { method: 'POST', path: '/webhooks', body: { url: 'http://127.0.0.1:9/x', name: 'x', events: ['content.status_updated'] } },
      { method: 'GET', path: `/webhooks/${randomUUID()}` },
      { method: 'GET', path: '/api-keys' },
      { method: 'POST', path: '/api-keys', body: { name: 'k' } },
      { method: 'DELETE', path: `/members/${workspace.ownerId}` },
    ];
    for (const request of refused) {
      const response = await asMember(request);
      expect(response.status, `${request.method} ${request.path}`).toBe(403);
      expect(response.body).toEqual(ROLE_FORBIDDEN);
      expectRateLimitHeaders(response);
    }
  });

  it('when an owner is demoted to member, the next owners-only request answers 403', async () => {
    const { workspace, call } = await adminWorld(server);
    expect((await call({ path: '/api-keys' })).status).toBe(200);
    const otherOwner = await createTestMember(server.store, workspace, 'owner');
    await server.store.accounts.upsertMembership(workspace.workspaceId, workspace.ownerId, 'member', new Date().toISOString());
    expect(otherOwner).toBeTruthy();
    const response = await call({ path: '/api-keys' });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(ROLE_FORBIDDEN);
  });

  it('when the path names another workspace, answers 404 exactly like a workspace that does not exist', async () => {
    const { call } = await adminWorld(server);
    const other = await createTestWorkspace(server.store);
    const foreign = await call({ path: '/webhooks', workspaceId: other.workspaceId });
    const unknown = await call({ path: '/webhooks', workspaceId: randomUUID() });
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(foreign.body).toEqual(WORKSPACE_NOT_FOUND);
    expect(unknown.body).toEqual(WORKSPACE_NOT_FOUND);
    expectRateLimitHeaders(foreign);
  });

  it('when the workspace id is not a UUID, answers 422 naming it', async () => {
    const { call } = await adminWorld(server);
    const response = await call({ path: '/webhooks', workspaceId: 'not-a-uuid' });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      code: 4220,
      messages: 'Invalid parameters: path.workspace_id must match format "uuid".',
      data: { errors: [{ in: 'path', name: 'workspace_id', message: 'must match format "uuid"' }] },
    });
  });

  it('when the route does not exist, answers 404; when the method does not, 405 with Allow', async () => {
    const { call } = await adminWorld(server);
    const missing = await call({ path: '/nothing-here' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 4040, messages: expect.stringMatching(/^No route GET /), data: null });
    const wrongMethod = await call({ method: 'PUT', path: '/webhooks' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, POST, HEAD');
    expect(wrongMethod.body).toEqual({ code: 4050, messages: 'Method PUT is not allowed on this path; allowed: GET, POST, HEAD.', data: null });
  });

  it('when a workspace has used its requests, its member tokens and API keys share the limit and get 429', async () => {
    const limited = await startTestServerForThisTest({ allowPrivateWebhookTargets: true, rateLimit: { quota: 3, windowSeconds: 60, authFailureQuota: 1000 } });
    const { workspace, call } = await adminWorld(limited);
    expect((await call({ path: '/members' })).headers.get('ratelimit')).toMatch(/^"workspace";r=2;t=\d+$/);
    expect((await send(limited.url, { path: '/api/v1/me', key: workspace.key })).status).toBe(200);
    expect((await call({ path: '/webhooks/events', token: workspace.key })).status).toBe(200);
    const refused = await call({ path: '/members' });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ code: 4290, messages: expect.stringMatching(/^Rate limit exceeded: 3 requests per 60 seconds/), data: null });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('when the body is not JSON, too large or has unknown fields, answers 422 naming the problem', async () => {
    const { call, workspace, token } = await adminWorld(server);
    const notJson = await fetch(`${server.url}/api/workspace/${workspace.workspaceId}/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"name": "Dashboard",',
    });
    expect(notJson.status).toBe(422);
    expect(await notJson.json()).toEqual({
      code: 4220,
      messages: 'Invalid request body: not valid JSON.',
      data: { errors: [{ in: 'body', name: '', message: 'not valid JSON' }] },
    });
    const tooLarge = await call({ method: 'POST', path: '/api-keys', body: { name: 'x'.repeat(200_000) } });
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body).toEqual({
      code: 4220,
      messages: 'Invalid request body: larger than 100 KB.',
      data: { errors: [{ in: 'body', name: '', message: 'larger than 100 KB' }] },
    });
    const unknown = await call({ method: 'POST', path: '/api-keys', body: { name: 'Dashboard', color: 'red' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({
      code: 4220,
      messages: 'Invalid parameters: body.color is not a known field.',
      data: { errors: [{ in: 'body', name: 'color', message: 'is not a known field' }] },
    });
  });

  it('when an API key of the workspace is given, it still works for the read API after admin calls', async () => {
    const { workspace, call } = await adminWorld(server);
    const key = await createTestKey(server.store, workspace, { scopes: [] });
    expect((await call({ path: '/webhooks/events', token: key.key })).status).toBe(200);
    expect((await send(server.url, { path: '/api/v1/me', key: key.key })).status).toBe(200);
  });
});
