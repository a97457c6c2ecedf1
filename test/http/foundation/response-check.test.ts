import { describe, expect, it } from 'vitest';
import { handlers } from '../../../src/http/read-handlers.js';
import type { ReadHandlers } from '../../../src/operations/handler-types.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { startTestServerForThisTest } from '../../support/test-server.js';

/** The read handlers with getMe answering `answer` instead of the workspace's caller. */
function answeringMe(answer: { status: number; body: unknown }): ReadHandlers {
  return { ...handlers, getMe: (() => answer) as unknown as ReadHandlers['getMe'] };
}

const WRONG_BODY = { code: 2000, messages: 'OK', data: { surprise: true } };

describe('answers checked against the contract (validateResponses, as the tests run the app)', () => {
  it('lets through an answer the contract documents', async () => {
    const server = await startTestServerForThisTest();
    const ws = await createTestWorkspace(server.store);
    const answer = await send(server.url, { path: '/api/v1/me', key: ws.key });
    expect(answer.status).toBe(200);
  });

  it('turns a body that does not match the documented schema into a 500 whose log line names the problem', async () => {
    const server = await startTestServerForThisTest({ handlers: answeringMe({ status: 200, body: WRONG_BODY }) });
    const ws = await createTestWorkspace(server.store);
    const answer = await send(server.url, { path: '/api/v1/me', key: ws.key });
    expect(answer.status).toBe(500);
    expect((answer.body as { code: number }).code).toBe(5000);
    expect(JSON.stringify(answer.body)).not.toContain('surprise');
    const logged = server.logLines().find((line) => line.includes('the 200 answer of getMe does not match the contract'));
    expect(logged, server.logLines().join('\n')).toBeDefined();
    expect(logged).toMatch(/body\/data must have required property/);
  });

  it('turns a status the operation does not document into a 500', async () => {
    const server = await startTestServerForThisTest({ handlers: answeringMe({ status: 418, body: WRONG_BODY }) });
    const ws = await createTestWorkspace(server.store);
    const answer = await send(server.url, { path: '/api/v1/me', key: ws.key });
    expect(answer.status).toBe(500);
    expect(server.logLines().some((line) => line.includes('the 418 answer of getMe does not match the contract: no response is documented for 418'))).toBe(true);
  });

  it('checks error envelopes too: a 404 in the documented shape passes', async () => {
    const server = await startTestServerForThisTest();
    const ws = await createTestWorkspace(server.store);
    const answer = await send(server.url, { path: '/api/v1/visibility/prompts/00000000-0000-4000-8000-000000000000', key: ws.key });
    expect(answer.status).toBe(404);
    expect(server.logLines().some((line) => line.includes('does not match the contract'))).toBe(false);
  });

  it('is off in the service as it runs: the same wrong body goes out as the handler built it', async () => {
    const server = await startTestServerForThisTest({ validateResponses: false, handlers: answeringMe({ status: 200, body: WRONG_BODY }) });
    const ws = await createTestWorkspace(server.store);
    const answer = await send(server.url, { path: '/api/v1/me', key: ws.key });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(WRONG_BODY);
  });
});
