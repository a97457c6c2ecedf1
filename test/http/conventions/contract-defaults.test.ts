// walks-operations: asks every operation of the contract (test/scaffold/ runs it after adding an endpoint)
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOpenApiDocument } from '@workspace-read-api/contract/documents.js';
import { compileOperations } from '@workspace-read-api/contract/contract-operations.js';
import { importLines } from '../../../src/import/import-ndjson.js';
import { createMemberToken } from '../../../src/keys/member-tokens.js';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { send, type ObservedResponse } from '../../support/http.js';
import { demoScenario } from '../../support/import-scenarios.js';
import { NO_RATE_LIMIT, useTestServer } from '../../support/test-server.js';
import { createTestWebhook } from '../../support/webhooks.js';
import { everyReadRoute, type ReadDocument, type ReadRoute } from '../../stores/every-read-routes.js';

// Every operation of the contract that gives a query parameter a `default:` answers a request that
// leaves those parameters out exactly as one that sends each default: the service fills them in
// from the contract, and no handler keeps a default of its own that could drift from it. The data
// (the demo's, over 40 days and more prompts than a page holds) make each default matter: another
// `range`, `limit` or `order` answers differently.
const NOW = new Date('2026-11-22T12:00:00.000Z');
const document = loadOpenApiDocument();
const defaulted = compileOperations(document).filter((op) => op.method === 'GET' && Object.keys(op.queryDefaults).length > 0);
// Every GET, with where each path parameter's values come from (the webhook routes included: a webhook is made below).
const { routes } = everyReadRoute(document as ReadDocument, {});

const server = useTestServer({ now: () => NOW, rateLimit: NO_RATE_LIMIT });
let ws: TestWorkspace;
let token: string;
beforeAll(async () => {
  ws = await createTestWorkspace(server.store);
  token = (await createMemberToken(server.store, { workspaceId: ws.workspaceId, userId: ws.ownerId, name: 'Owner token' }, NOW)).token;
  for (const step of demoScenario({ prompts: 30, days: 40, answersPerDay: 1 }).steps.slice(0, 1)) {
    await importLines(server.store, ws.workspaceId, step.lines, { events: step.events, now: () => NOW });
  }
  await createTestWebhook(server.store, ws, { url: 'https://receiver.example.test/hook' });
}, 60_000);

/**
 * The answer's text; where the request itself changes the answer (the usage, which counts it, and
 * `/me`, the key's last use), its JSON with every number zeroed: the days or items it holds and
 * their dates still compare.
 */
function comparable(path: string, res: ObservedResponse): string {
  const changedByTheRequest = path === '/api/v1/me' || /\/usage(\/|$)/.test(path);
  return changedByTheRequest ? JSON.stringify(JSON.parse(res.text), (_, value: unknown) => (typeof value === 'number' ? 0 : value)) : res.text;
}

function get(route: ReadRoute, path: string, query: Record<string, string>): Promise<ObservedResponse> {
  return send(server.url, route.member ? { path, query, headers: { authorization: `Bearer ${token}` }, key: null } : { path, query, key: ws.key });
}

/** The route's path with each parameter filled in: the workspace, an enum's first value, the first id its list gives. */
async function concretePath(route: ReadRoute): Promise<string> {
  let path = route.path;
  for (const source of route.pathValues) {
    let value: string | undefined;
    if (source.from === 'workspace') value = ws.workspaceId;
    else if (source.from === 'enum') value = source.values[0];
    else {
      const listRoute = routes.find((r) => r.path === source.list)!;
      const list = await get(listRoute, await concretePath(listRoute), {});
      value = (list.body as { data?: { items?: Array<{ id?: string }> } }).data?.items?.[0]?.id;
    }
    if (value === undefined) throw new Error(`${route.operationId}: no value for {${source.name}} in this test's data`);
    path = path.replace(`{${source.name}}`, value);
  }
  return path;
}

describe('every operation whose contract defaults a query parameter', () => {
  it('is found among the GETs the contract documents (the list is not empty)', () => {
    expect(defaulted.map((op) => op.operationId)).toContain('listPrompts');
  });

  it.each(defaulted.map((op) => [op.operationId, op] as const))('%s: leaving the defaulted parameters out answers as sending each default', async (operationId, op) => {
    const route = routes.find((r) => r.operationId === operationId);
    if (!route) throw new Error(`${operationId}: test/stores/every-read-routes.ts finds no way to ask it`);
    const path = await concretePath(route);
    const sent = Object.fromEntries(Object.entries(op.queryDefaults).map(([name, value]) => [name, String(value)]));
    const omitted = await get(route, path, {});
    const explicit = await get(route, path, sent);
    expect(omitted.status, `${path}: ${omitted.text.slice(0, 300)}`).toBe(200);
    expect([explicit.status, explicit.headers.get('content-type'), comparable(path, explicit)]).toEqual([omitted.status, omitted.headers.get('content-type'), comparable(path, omitted)]);
  });
});
