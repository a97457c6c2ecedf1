import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { createTestKey, createTestMember, createTestWorkspace } from '../../support/accounts.js';
import { adminClient, createTestMemberToken } from '../../support/admin.js';
import { send } from '../../support/http.js';
import { startTestServer, useTestServer, type TestServer } from '../../support/test-server.js';

// The guards are built from the document the app is given, not from anything written in src/:
// the same requests against the bundled contract and against a copy with a few operations'
// requirements changed get the answers each document asks for.

type Json = Record<string, any>;

/** The bundled contract with `change` applied to a copy of it. */
function changedContract(change: (paths: Json) => void): Json {
  const document = structuredClone(loadOpenApiDocument()) as Json;
  change(document.paths as Json);
  return document;
}

const apiKeyNeeds = (scope: string) => [{ BearerAuth: [scope] }, { ApiKeyHeader: [scope] }];

const changed = changedContract((paths) => {
  paths['/api/v1/workspace'].get.security = apiKeyNeeds('iq:read');
  paths['/api/v1/visibility/setup'].get['x-subscription-exempt'] = true;
  paths['/api/workspace/{workspace_id}/members'].get.security = [{ MemberToken: ['owner'] }];
  paths['/api/workspace/{workspace_id}/webhooks'].get.security = [{ MemberToken: [] }];
  paths['/api/workspace/{workspace_id}/webhooks/events'].get.security = [{ MemberToken: [] }];
});

const bundled = useTestServer();
const modified = useTestServer({ document: changed });

describe('the scope guard', () => {
  it('when an operation\'s security names another scope, asks the key for that scope instead', async () => {
    const answers = async (server: TestServer) => {
      const ws = await createTestWorkspace(server.store);
      const keys = await Promise.all([createTestKey(server.store, ws, { scopes: ['workspace:read'] }), createTestKey(server.store, ws, { scopes: ['iq:read'] })]);
      return Promise.all(keys.map(async ({ key }) => {
        const res = await send(server.url, { path: '/api/v1/workspace', key });
        return res.status === 403 ? res.body : res.status;
      }));
    };
    const refusal = (scope: string) => ({
      code: 4023,
      messages: `The API key lacks the scope required for this request: ${scope}.`,
      data: { required: [scope], missing: [scope] },
    });
    expect(await answers(bundled)).toEqual([200, refusal('workspace:read')]);
    expect(await answers(modified)).toEqual([refusal('iq:read'), 200]);
  });
});

describe('the subscription guard', () => {
  it('when an operation is marked x-subscription-exempt, answers it for a past-due workspace', async () => {
    const statuses = async (server: TestServer) => {
      const ws = await createTestWorkspace(server.store, { subscription: 'past_due' });
      const setup = await send(server.url, { path: '/api/v1/visibility/setup', key: ws.key });
      const prompts = await send(server.url, { path: '/api/v1/visibility/prompts', key: ws.key });
      return [setup.status, prompts.status];
    };
    expect(await statuses(bundled)).toEqual([402, 402]);
    expect(await statuses(modified)).toEqual([200, 402]);
  });
});

describe('the administration guard', () => {
  it('when an operation\'s security names the owner role, refuses other members; when it names none, admits them', async () => {
    const answers = async (server: TestServer) => {
      const ws = await createTestWorkspace(server.store);
      const memberId = await createTestMember(server.store, ws, 'member');
      const asMember = adminClient(server.url, ws.workspaceId, (await createTestMemberToken(server.store, ws, memberId)).token);
      const members = await asMember({ path: '/members' });
      const webhooks = await asMember({ path: '/webhooks' });
      return [members, webhooks].map((res) => (res.status === 403 ? res.body : res.status));
    };
    const ownersOnly = { code: 4030, messages: 'Only owners of the workspace can do this; your role is member.', data: null };
    expect(await answers(bundled)).toEqual([200, ownersOnly]);
    expect(await answers(modified)).toEqual([ownersOnly, 200]);
  });

  it('when an operation\'s security no longer names an API-key scheme, refuses API keys there', async () => {
    const status = async (server: TestServer) => {
      const ws = await createTestWorkspace(server.store);
      return (await send(server.url, { path: `/api/workspace/${ws.workspaceId}/webhooks/events`, key: ws.key })).status;
    };
    expect(await status(bundled)).toBe(200);
    expect(await status(modified)).toBe(401);
  });
});

// startTestServer builds the app with createApp, and removes its store when the app is refused.
describe('createApp', () => {
  it('when an operation of the document declares no security requirement, refuses to build the app, naming it', async () => {
    const unsecured = changedContract((paths) => {
      delete paths['/api/v1/content/ideas'].get.security;
    });
    await expect(startTestServer({ document: unsecured }))
      .rejects.toThrow('GET /api/v1/content/ideas: declares no security requirement');
  });

  it('when a scheme of a requirement says no credential, refuses to build the app', async () => {
    const unknown = changedContract((paths) => {
      paths['/api/v1/me'].get.security = [{ SomethingElse: [] }];
    });
    await expect(startTestServer({ document: unknown }))
      .rejects.toThrow(/GET \/api\/v1\/me: security requirement .* names no scheme with an x-credential/);
  });
});
