import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { createTestMember, createTestWorkspace } from '../../support/accounts.js';
import { createTestMemberToken } from '../../support/admin.js';
import { send, noRoute } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';

// The administration API matches paths exactly as the contract writes them, like the read API: a
// path in other letter case is no operation, so it never reaches an owner-only handler.

const server = useTestServer({ allowPrivateWebhookTargets: true });

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const document = loadOpenApiDocument() as { paths: Record<string, Record<string, unknown>> };
const adminOperations = Object.entries(document.paths)
  .filter(([path]) => path.startsWith('/api/workspace/'))
  .flatMap(([path, item]) => Object.keys(item).filter((m) => HTTP_METHODS.includes(m)).map((m) => ({ method: m.toUpperCase(), path })));

/** A body the create and update operations would take, so only the path can make the answer a 404. */
const BODY = { url: 'http://127.0.0.1:9/hooks', name: 'Receiver', events: ['content.status_updated'] };

/** A member (not an owner) of a fresh workspace, with a member token. */
async function memberOfFreshWorkspace() {
  const workspace = await createTestWorkspace(server.store);
  const memberId = await createTestMember(server.store, workspace, 'member');
  return { workspace, token: (await createTestMemberToken(server.store, workspace, memberId)).token };
}

/**
 * The concrete path with the segment after the workspace id in capitals: `/api/workspace/{id}/API-KEYS`.
 * (A segment where a path parameter may stand is an id, not a misspelling: `/webhooks/EVENTS` is
 * the webhook `EVENTS`, so that is not the segment changed here.)
 */
function shouted(template: string, workspaceId: string): string {
  return template
    .split('/')
    .map((s, i) => (i === 4 ? s.toUpperCase() : s))
    .join('/')
    .replace('{workspace_id}', workspaceId)
    .replace(/\{[^}]+\}/g, () => randomUUID());
}


describe('/api/workspace/{workspace_id}/... with the letter case of the path changed', () => {
  it('when a member who is not an owner calls any operation, answers 404 (4040) and runs no handler', async () => {
    expect(adminOperations.length).toBeGreaterThanOrEqual(18);
    for (const { method, path: template } of adminOperations) {
      const { workspace, token } = await memberOfFreshWorkspace();
      const path = shouted(template, workspace.workspaceId);
      const res = await send(server.url, { method, path, key: token, body: method === 'POST' || method === 'PATCH' ? BODY : undefined });
      expect([method, path, res.status, res.body]).toEqual([method, path, 404, noRoute(method, path)]);
    }
  });

  it('when the owner-only lists are asked in capitals, nothing of the workspace is shown to a member', async () => {
    const { workspace, token } = await memberOfFreshWorkspace();
    for (const tail of ['/API-KEYS', '/WEBHOOKS', '/Webhooks', '/api-Keys']) {
      const path = `/api/workspace/${workspace.workspaceId}${tail}`;
      const res = await send(server.url, { path, key: token });
      expect([path, res.status, res.body]).toEqual([path, 404, noRoute('GET', path)]);
    }
  });

  it('when a body that is not JSON goes to a path no operation has, answers 404 before reading it', async () => {
    const { workspace, token } = await memberOfFreshWorkspace();
    const path = `/api/workspace/${workspace.workspaceId}/API-KEYS`;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const res = await fetch(new URL(path, server.url), { method: 'POST', headers, body: '{not json' });
    expect([res.status, await res.json()]).toEqual([404, noRoute('POST', path)]);
  });

  it('when the path ends with /, holds // or escapes a letter, answers 404 (4040)', async () => {
    const { workspace, token } = await memberOfFreshWorkspace();
    const base = `/api/workspace/${workspace.workspaceId}`;
    for (const path of [`${base}/members/`, `${base}//members`, `${base}/%6Dembers`, `${base}/webhooks/events/`, `${base}/%77ebhooks/events`]) {
      const res = await send(server.url, { path, key: token });
      expect([path, res.status, res.body]).toEqual([path, 404, noRoute('GET', path)]);
    }
  });

  it('when a segment is a property of Object.prototype, answers 404 (4040)', async () => {
    const { workspace, token } = await memberOfFreshWorkspace();
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const path = `/api/workspace/${workspace.workspaceId}/${name}`;
      const res = await send(server.url, { path, key: token });
      expect([path, res.status, res.body]).toEqual([path, 404, noRoute('GET', path)]);
    }
  });

  it('when a path parameter is not valid percent-encoding, answers 422 naming it, never 500', async () => {
    const workspace = await createTestWorkspace(server.store);
    const owner = (await createTestMemberToken(server.store, workspace)).token;
    const cases: Array<[method: string, path: string, problem: string]> = [
      ['GET', '/api/workspace/%ZZ/members', 'path.workspace_id must match format "uuid"'],
      ['DELETE', `/api/workspace/${workspace.workspaceId}/members/%E0%A4%A`, 'path.user_id is not valid percent-encoding'],
    ];
    for (const [method, path, problem] of cases) {
      const res = await send(server.url, { method, path, key: owner });
      const [, name, message] = /^path\.(\w+) (.*)$/.exec(problem)!;
      const data = { errors: [{ in: 'path', name, message }] };
      expect([path, res.status, res.body]).toEqual([path, 422, { code: 4220, messages: `Invalid parameters: ${problem}.`, data }]);
    }
  });
});
