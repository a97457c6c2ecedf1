import { describe, expect, it } from 'vitest';
import { handlers } from '../../../src/http/read-handlers.js';
import { bundledContract } from '@workspace-read-api/contract/documents.js';
import type { ReadHandlers } from '../../../src/operations/handler-types.js';
import { createTestKey, createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { startTestServer, startTestServerForThisTest, useTestServer } from '../../support/test-server.js';

const server = useTestServer();

describe('any path under /api/v1', () => {
  it('when the route does not exist, answers 404 (4040) after authentication', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await send(server.url, { path: '/api/v1/nothing-here', key: ws.key });
    expect([res.status, res.body]).toEqual([404, { code: 4040, messages: 'No route GET /api/v1/nothing-here.', data: null }]);
    expect(res.headers.get('ratelimit')).toMatch(/^"workspace";r=\d+;t=\d+$/);
    expect((await send(server.url, { path: '/api/v1/nothing-here' })).status).toBe(401);
  });

  it('when the route does not exist, answers 404 whatever the key\'s scopes', async () => {
    const ws = await createTestWorkspace(server.store);
    const key = await createTestKey(server.store, ws, { scopes: [] });
    expect((await send(server.url, { path: '/api/v1/nothing-here', key: key.key })).status).toBe(404);
  });

  it('when the method is not GET or HEAD, answers 405 (4050) with Allow: GET, HEAD', async () => {
    const ws = await createTestWorkspace(server.store);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await send(server.url, { method, path: '/api/v1/me', key: ws.key, body: { a: 1 } });
      expect([res.status, res.body, res.headers.get('allow')]).toEqual([405, {
        code: 4050,
        messages: `Method ${method} is not allowed on this path; allowed: GET, HEAD.`,
        data: null,
      }, 'GET, HEAD']);
    }
  });

  it('when a query parameter is unknown, answers 422 (4220) naming it', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await send(server.url, { path: '/api/v1/me', key: ws.key, query: { colour: 'blue' } });
    expect([res.status, res.body]).toEqual([422, {
      code: 4220,
      messages: 'Invalid parameters: query.colour is not a known parameter.',
      data: { errors: [{ in: 'query', name: 'colour', message: 'is not a known parameter' }] },
    }]);
  });

  it('when several query parameters are unknown, names every one of them', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await send(server.url, { path: '/api/v1/workspace', key: ws.key, query: { colour: 'blue', size: 'xl' } });
    expect(res.status).toBe(422);
    const { messages } = res.body as { messages: string };
    expect(messages).toContain('query.colour');
    expect(messages).toContain('query.size');
    expect((res.body as { data: unknown }).data).toEqual({ errors: [
      { in: 'query', name: 'colour', message: 'is not a known parameter' },
      { in: 'query', name: 'size', message: 'is not a known parameter' },
    ] });
  });

  it('checks in order: 401, then 429, then 403, then 402, then 422', async () => {
    const ws = await createTestWorkspace(server.store, { subscription: 'past_due' });
    const noScopes = await createTestKey(server.store, ws, { scopes: [] });
    const path = '/api/v1/workspace';
    const query = { unknown: '1' };
    expect((await send(server.url, { path, query })).status).toBe(401);
    expect((await send(server.url, { path, query, key: noScopes.key })).status).toBe(403);
    expect((await send(server.url, { path, query, key: ws.key })).status).toBe(422);
  });
});

describe('an unexpected failure', () => {
  it('answers 500 (5000) with no stack, SQL or path in the body, and logs the cause under the request id', async () => {
    const cause = 'SQLITE_CONSTRAINT: UNIQUE constraint failed: api_keys.key_hash in /srv/app/src/store/api-keys.ts';
    const failing: ReadHandlers = { ...handlers, getMe: () => { throw new Error(cause); } };
    const own = await startTestServerForThisTest({ handlers: failing });
    const ws = await createTestWorkspace(own.store);
    const res = await send(own.url, { path: '/api/v1/me', key: ws.key, headers: { 'x-request-id': 'failure-under-test' } });
    expect([res.status, res.body]).toEqual([500, {
      code: 5000,
      messages: 'Internal error; quote the X-Request-Id header when reporting it.',
      data: null,
    }]);
    expect(res.headers.get('x-request-id')).toBe('failure-under-test');
    const logged = own.logLines().map((l) => JSON.parse(l) as { level: number; req?: { id: string }; err?: { message: string; stack: string } });
    const entry = logged.find((l) => l.err?.message === cause);
    expect(entry).toBeDefined();
    expect(entry!.level).toBe(50);
    expect(entry!.req?.id).toBe('failure-under-test');
    expect(entry!.err!.stack).toContain('routes.test.ts');
  });
});

describe('apps built from the same contract', () => {
  it('share its loaded form but each calls its own handlers, even while both serve', async () => {
    const failing: ReadHandlers = { ...handlers, getMe: () => { throw new Error('this app fails /me'); } };
    const own = await startTestServerForThisTest({ handlers: failing });
    const [ws, ownWs] = [await createTestWorkspace(server.store), await createTestWorkspace(own.store)];
    const [plain, failed] = await Promise.all([
      send(server.url, { path: '/api/v1/me', key: ws.key }),
      send(own.url, { path: '/api/v1/me', key: ownWs.key }),
    ]);
    expect([plain.status, failed.status]).toEqual([200, 500]);
  });

  it('refuse to start with a handler for an operation the contract lacks', async () => {
    const extra = { ...handlers, getNothing: () => ({ status: 200, body: {} }) } as unknown as ReadHandlers;
    await expect(startTestServer({ handlers: extra })).rejects.toThrow('the contract has no operation getNothing for its handler');
  });

  it('refuse to start when an administration operation does not state what the audit log records of it, or states it wrongly', async () => {
    const withAudit = (audit: unknown) => {
      const document = structuredClone(bundledContract.openApi()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
      const op = document.paths['/api/workspace/{workspace_id}/webhooks/{webhook_id}']!.patch!;
      if (audit === undefined) delete op['x-audit'];
      else op['x-audit'] = audit;
      return document;
    };
    await expect(startTestServer({ document: withAudit(undefined) })).rejects.toThrow('the administration operation updateWebhook states no x-audit, so the audit log could not record it');
    await expect(startTestServer({ document: withAudit({ action: 'webhook.renamed', object: 'webhook', 'object-id': 'webhook_id' }) }))
      .rejects.toThrow('PATCH /api/workspace/{workspace_id}/webhooks/{webhook_id}: x-audit action "webhook.renamed" is not one of the contract\'s AuditAction');
  });
});

describe('service endpoints', () => {
  it('GET /healthz answers 200 without a key', async () => {
    const res = await send(server.url, { path: '/healthz' });
    expect([res.status, res.body]).toEqual([200, { code: 2000, messages: 'OK', data: { status: 'ok' } }]);
  });

  it('GET /readyz answers 200 while the database answers, 503 once it does not', async () => {
    const res = await send(server.url, { path: '/readyz' });
    expect([res.status, res.body]).toEqual([200, { code: 2000, messages: 'OK', data: { status: 'ready' } }]);
    const own = await startTestServerForThisTest();
    await own.store.close();
    const down = await send(own.url, { path: '/readyz' });
    expect(down.status).toBe(503);
  });

  it('GET /openapi.json serves the bundled contract without a key, naming the server it was fetched from', async () => {
    const { loadOpenApiDocument } = await import('@workspace-read-api/contract/documents.js');
    const res = await send(server.url, { path: '/openapi.json' });
    expect([res.status, res.body]).toEqual([200, { ...loadOpenApiDocument(), servers: [{ url: server.url, description: 'This service' }] }]);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('X-Request-Id', () => {
  it('echoes a well-formed incoming id, on success and on error', async () => {
    const ws = await createTestWorkspace(server.store);
    expect((await send(server.url, { path: '/api/v1/me', key: ws.key, headers: { 'x-request-id': 'abc-123.X_y' } })).headers.get('x-request-id')).toBe('abc-123.X_y');
    expect((await send(server.url, { path: '/api/v1/me', headers: { 'x-request-id': 'req-401' } })).headers.get('x-request-id')).toBe('req-401');
  });

  it('generates a fresh UUID when none is sent or the sent one is not well formed', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const first = (await send(server.url, { path: '/healthz' })).headers.get('x-request-id');
    const second = (await send(server.url, { path: '/healthz' })).headers.get('x-request-id');
    expect(first).toMatch(uuid);
    expect(second).toMatch(uuid);
    expect(first).not.toBe(second);
    for (const bad of ['has space', 'x'.repeat(65), 'quote"d', '<script>']) {
      const id = (await send(server.url, { path: '/healthz', headers: { 'x-request-id': bad } })).headers.get('x-request-id');
      expect(id).toMatch(uuid);
    }
  });

  it('writes the id into the request\'s log line', async () => {
    await send(server.url, { path: '/healthz', headers: { 'x-request-id': 'trace-me-42' } });
    const line = server.logLines().map((l) => JSON.parse(l) as { req?: { id: string }; res?: { statusCode: number } })
      .find((l) => l.req?.id === 'trace-me-42');
    expect(line?.res?.statusCode).toBe(200);
  });
});
