import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestKey, createTestMember, createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { send } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, expectRateLimitHeaders, WORKSPACE_NOT_FOUND } from './helpers.js';

const server = useTestServer();

// The six events of the API and their groups, written out independently of the AsyncAPI document.
const CATALOG = {
  code: 8010,
  messages: 'OK',
  data: [
    { event: 'content.status_updated', label: 'Article status updated', description: "An article's status changes.", group: 'content' },
    { event: 'research_batch.status_updated', label: 'Research batch status updated', description: 'A research batch completes processing or fails.', group: 'research_batch' },
    { event: 'agent_task.status_updated', label: 'Agent task status updated', description: 'An agent task changes state (queued, running, succeeded, failed).', group: 'agent_task' },
    { event: 'topic.status_updated', label: 'Topic stage updated', description: "A topic cluster's stage changes.", group: 'topic' },
    { event: 'iq.status_updated', label: 'Brand intelligence updated', description: 'A brand-intelligence analysis (persona, product brief, voice profile) completes or changes stage.', group: 'iq' },
    { event: 'sitemap_url.status_updated', label: 'Sitemap URL processed', description: 'Sitemap URL processing completes or fails.', group: 'sitemap_url' },
  ],
};

const catalogPath = (workspaceId: string) => `/api/workspace/${workspaceId}/webhooks/events`;

describe('GET /api/workspace/{workspace_id}/webhooks/events', () => {
  it('when an owner\'s member token asks, answers 8010 with the six events, labels, descriptions and groups', async () => {
    const { call } = await adminWorld(server);
    const response = await call({ path: '/webhooks/events' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(CATALOG);
    expectRateLimitHeaders(response);
  });

  it('when a member who is not an owner asks, answers the catalog too', async () => {
    const workspace = await createTestWorkspace(server.store);
    const memberId = await createTestMember(server.store, workspace, 'member');
    const call = adminClient(server.url, workspace.workspaceId, (await createTestMemberToken(server.store, workspace, memberId)).token);
    expect((await call({ path: '/webhooks/events' })).body).toEqual(CATALOG);
  });

  it('when an API key of the workspace with no scopes asks, in either header, answers the catalog', async () => {
    const workspace = await createTestWorkspace(server.store);
    const { key } = await createTestKey(server.store, workspace, { scopes: [] });
    const bearer = await send(server.url, { path: catalogPath(workspace.workspaceId), key });
    const header = await send(server.url, { path: catalogPath(workspace.workspaceId), key: null, headers: { 'x-api-key': key } });
    expect(bearer.status).toBe(200);
    expect(bearer.body).toEqual(CATALOG);
    expect(header.body).toEqual(CATALOG);
  });

  it('when the API key is revoked, answers 401 with code 4022', async () => {
    const workspace = await createTestWorkspace(server.store);
    await server.store.apiKeys.revoke(workspace.keyId, new Date().toISOString());
    const response = await send(server.url, { path: catalogPath(workspace.workspaceId), key: workspace.key });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 4022, messages: 'The API key is invalid, revoked or expired.', data: null });
  });

  it('when the path names another workspace, answers 404 exactly like an unknown workspace, for keys and tokens', async () => {
    const workspace = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const token = (await createTestMemberToken(server.store, workspace)).token;
    for (const credential of [workspace.key, token]) {
      const foreign = await send(server.url, { path: catalogPath(other.workspaceId), key: credential });
      const unknown = await send(server.url, { path: catalogPath(randomUUID()), key: credential });
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual(WORKSPACE_NOT_FOUND);
      expect(unknown.body).toEqual(WORKSPACE_NOT_FOUND);
    }
  });

  it('when the workspace id is not a UUID, answers 422', async () => {
    const workspace = await createTestWorkspace(server.store);
    const response = await send(server.url, { path: catalogPath('12345'), key: workspace.key });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      code: 4220,
      messages: 'Invalid parameters: path.workspace_id must match format "uuid".',
      data: { errors: [{ in: 'path', name: 'workspace_id', message: 'must match format "uuid"' }] },
    });
  });

  it('when the request carries a query parameter, answers 422 naming it', async () => {
    const { call } = await adminWorld(server);
    const response = await call({ path: '/webhooks/events', query: { group: 'content' } });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      code: 4220,
      messages: expect.stringContaining('group'),
      data: { errors: [{ in: 'query', name: 'group', message: 'is not a known parameter' }] },
    });
  });
});
