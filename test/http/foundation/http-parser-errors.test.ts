import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../../src/server.js';
import { startConfiguredServer } from '../../support/process-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { createTestMemberToken } from '../../support/admin.js';
import { connectRaw, exchangeRaw, parseRawResponses, type RawResponse } from '../../support/raw-http.js';

let running: RunningServer;
beforeAll(async () => {
  running = await startConfiguredServer();
});
afterAll(async () => {
  await running.close();
});

/** Text that must never come back: it stands for whatever a client sent. */
const MARKER = 'wsk_live_EchoMarker0123456789';

function expectEnvelope(res: RawResponse, status: number, code: number): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers.connection).toBe('close');
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(JSON.parse(res.body)).toEqual({ code, messages: expect.any(String), data: null });
  expect(res.body).not.toContain(MARKER);
}

describe('requests the HTTP parser refuses', () => {
  it('when the headers are larger than the server accepts, answers 431 (4310) in the envelope and closes', async () => {
    const res = await exchangeRaw(running.url, `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${MARKER}${'a'.repeat(20_000)}\r\n\r\n`);
    expectEnvelope(res, 431, 4310);
    expect(JSON.parse(res.body).messages).toBe('Request headers too large: the request line and headers must stay under 16 KB.');
  });

  it.each([
    ['a request line that is not HTTP', `${MARKER} / HTTP/1.1\r\nHost: localhost\r\n\r\n`],
    ['a request target with a space', `GET /${MARKER} x HTTP/1.1\r\nHost: localhost\r\n\r\n`],
    ['both Content-Length and Transfer-Encoding', `POST /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    ['two different Content-Length values', `POST /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n${MARKER}`],
    ['a header name with a space', `GET /healthz HTTP/1.1\r\nHost: localhost\r\nX ${MARKER}: 1\r\n\r\n`],
    ['a line feed without a carriage return in its headers', `GET /healthz HTTP/1.1\r\nHost: localhost\nX-A: ${MARKER}\r\n\r\n`],
  ])('when the request has %s, answers 400 (4000) in the envelope without echoing it, and closes', async (_what, bytes) => {
    const res = await exchangeRaw(running.url, bytes);
    expectEnvelope(res, 400, 4000);
    expect(JSON.parse(res.body).messages).toBe('Malformed request: the request line, a header or the message framing is not valid HTTP/1.1.');
  });

  it('when a POST\'s Content-Length is shorter than its body, answers the POST as received, then 400 (4000) in the envelope for the stray bytes, and closes', async () => {
    const ws = await createTestWorkspace(running.store);
    const { token } = await createTestMemberToken(running.store, ws);
    const body = '{"name":"framed"}';
    const connection = await connectRaw(running.url);
    connection.socket.write(`POST /api/workspace/${ws.workspaceId}/api-keys HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n`
      + `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}${MARKER} stray bytes\r\n\r\n`);
    await connection.closedWithin(5_000);
    const [created, refused, ...more] = parseRawResponses(connection.received());
    expect([created?.status, JSON.parse(created!.body).data.api_key.name, more]).toEqual([201, 'framed', []]);
    expectEnvelope(refused!, 400, 4000);
  });

  it('when a POST\'s chunked body has an invalid chunk size, answers 400 (4000) in the envelope, runs nothing, and closes', async () => {
    const ws = await createTestWorkspace(running.store);
    const { token } = await createTestMemberToken(running.store, ws);
    const connection = await connectRaw(running.url);
    connection.socket.write(`POST /api/workspace/${ws.workspaceId}/api-keys HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n`
      + `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{"name":"${MARKER}"}\r\n0\r\n\r\n`);
    await connection.closedWithin(5_000);
    const responses = parseRawResponses(connection.received());
    expect(responses).toHaveLength(1);
    expectEnvelope(responses[0]!, 400, 4000);
    expect((await running.store.apiKeys.listByWorkspace(ws.workspaceId)).map((k) => k.name)).toEqual(['Test key']);
  });

  it('when a request was malformed, the server keeps answering the next connections', async () => {
    const res = await exchangeRaw(running.url, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect([res.status, JSON.parse(res.body).code]).toEqual([200, 2000]);
    const bad = await exchangeRaw(running.url, 'BAD\r\n\r\n');
    expectEnvelope(bad, 400, 4000);
    const after = await exchangeRaw(running.url, 'GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(after.status).toBe(200);
  });
});
