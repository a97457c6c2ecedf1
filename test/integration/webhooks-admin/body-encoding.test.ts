import zlib, { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../support/test-server.js';
import { adminWorld, createWebhook, emit } from './helpers.js';

const server = useTestServer({ allowPrivateWebhookTargets: true });

/** Every administration operation that takes a body: a valid body and the status it answers. */
const OPERATIONS: Array<{ operation: string; method: string; path: (webhookId: string) => string; body: object; success: number }> = [
  { operation: 'createApiKey', method: 'POST', path: () => '/api-keys', body: { name: 'Encoded key' }, success: 201 },
  { operation: 'createWebhook', method: 'POST', path: () => '/webhooks', body: { url: 'http://127.0.0.1:9/hooks', name: 'Encoded', events: ['content.status_updated'] }, success: 201 },
  { operation: 'updateWebhook', method: 'PATCH', path: (id) => `/webhooks/${id}`, body: { name: 'Renamed' }, success: 200 },
  { operation: 'rotateWebhookSecret', method: 'POST', path: (id) => `/webhooks/${id}/rotate-secret`, body: { grace_period_seconds: 60 }, success: 200 },
  { operation: 'testWebhook', method: 'POST', path: (id) => `/webhooks/${id}/test`, body: { event: 'content.status_updated' }, success: 200 },
  { operation: 'recoverWebhookDeliveries', method: 'POST', path: (id) => `/webhooks/${id}/deliveries/recover`, body: { since: '2026-01-01T00:00:00Z' }, success: 202 },
];

const GARBAGE = Buffer.from('this is not compressed at all, just bytes \u0000\u00ff\u0013');

/** Content-Encoding, the bytes sent for a JSON text, and the status and code expected. */
const ENCODINGS: Array<{ encoding: string; bytes: (json: string) => Buffer | string; expected: (success: number) => [number, number] }> = [
  { encoding: 'compress', bytes: (json) => json, expected: () => [415, 4150] },
  { encoding: 'x-foo', bytes: (json) => json, expected: () => [415, 4150] },
  { encoding: 'gzip', bytes: () => GARBAGE, expected: () => [422, 4220] },
  { encoding: 'deflate', bytes: () => GARBAGE, expected: () => [422, 4220] },
  { encoding: 'br', bytes: () => GARBAGE, expected: () => [422, 4220] },
  { encoding: 'identity', bytes: (json) => json, expected: (success) => [success, success === 201 ? 2010 : success === 202 ? 2020 : 2000] },
];

/** The codings this Node build decodes (zstd from Node 22.15 and 23.8), as a 415 names them. */
const CODINGS = ['gzip', 'deflate', 'br', ...('createZstdDecompress' in zlib ? ['zstd'] : [])].join(', ');

const MESSAGES: Record<string, string> = {
  compress: `Unsupported Content-Encoding: send the body uncompressed or as ${CODINGS}.`,
  'x-foo': `Unsupported Content-Encoding: send the body uncompressed or as ${CODINGS}.`,
  gzip: 'Invalid request body: it is not valid gzip data.',
  deflate: 'Invalid request body: it is not valid deflate data.',
  br: 'Invalid request body: it is not valid br data.',
};

async function sendBody(url: string, token: string, method: string, body: Buffer | string, headers: Record<string, string>) {
  const res = await fetch(url, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { code: number; messages: string; data: unknown } };
}

describe('administration operations that take a body, with Content-Encoding', () => {
  for (const op of OPERATIONS) {
    it.each(ENCODINGS)(`${op.operation}: when the body is sent as $encoding, answers the documented status, never a 500`, async ({ encoding, bytes, expected }) => {
      const { workspace, token, call } = await adminWorld(server);
      const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/hooks' });
      const url = `${server.url}/api/workspace/${workspace.workspaceId}${op.path(id)}`;
      const res = await sendBody(url, token, op.method, bytes(JSON.stringify(op.body)), { 'content-encoding': encoding });
      const [status, code] = expected(op.success);
      expect([res.status, res.body.code]).toEqual([status, code]);
      // A 422 also names the body for programs; a 415 carries no data.
      const data = status === 422 ? { errors: [{ in: 'body', name: '', message: MESSAGES[encoding]!.replace(/^Invalid request body: (.*)\.$/, '$1') }] } : null;
      if (status >= 400) expect(res.body).toEqual({ code, messages: MESSAGES[encoding], data });
      if (status === 415) expect(res.headers.get('accept-encoding')).toBe(CODINGS);
    });
  }

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('when the body is really %s-compressed, decodes it and runs the operation', async (encoding, compress) => {
    const { token, workspace } = await adminWorld(server);
    const url = `${server.url}/api/workspace/${workspace.workspaceId}/api-keys`;
    const res = await sendBody(url, token, 'POST', compress(JSON.stringify({ name: `Compressed ${encoding}` })), { 'content-encoding': encoding });
    expect([res.status, res.body.code]).toEqual([201, 2010]);
  });

  it('when a small compressed body inflates past 100 KB, answers 422 like an uncompressed one', async () => {
    const { token, workspace } = await adminWorld(server);
    const url = `${server.url}/api/workspace/${workspace.workspaceId}/api-keys`;
    const bomb = gzipSync(JSON.stringify({ name: 'x'.repeat(50 * 1024 * 1024) }));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const res = await sendBody(url, token, 'POST', bomb, { 'content-encoding': 'gzip' });
    expect([res.status, res.body]).toEqual([422, { code: 4220, messages: 'Invalid request body: larger than 100 KB.', data: { errors: [{ in: 'body', name: '', message: 'larger than 100 KB' }] } }]);
  });

  it.each(['x-foo', 'gzip', 'identity'])('operations that take no body (enable, disable, redeliver, delete) ignore one sent as %s and answer their success', async (encoding) => {
    const { workspace, token, call } = await adminWorld(server);
    const { id } = await createWebhook(call, { url: 'http://127.0.0.1:9/hooks' });
    await emit(server, workspace.workspaceId);
    const [delivery] = ((await call({ path: `/webhooks/${id}/deliveries` })).body as { data: { items: Array<{ id: string }> } }).data.items;
    const base = `${server.url}/api/workspace/${workspace.workspaceId}/webhooks/${id}`;
    const answers: Array<[string, number, number]> = [];
    for (const [method, path] of [['POST', '/disable'], ['POST', '/enable'], ['POST', `/deliveries/${delivery!.id}/redeliver`], ['DELETE', '']] as const) {
      const res = await sendBody(`${base}${path}`, token, method, GARBAGE, { 'content-encoding': encoding });
      answers.push([`${method} ${path || '/'}`, res.status, res.body.code]);
    }
    expect(answers).toEqual([['POST /disable', 200, 2000], ['POST /enable', 200, 2000], [`POST /deliveries/${delivery!.id}/redeliver`, 202, 2020], ['DELETE /', 200, 2040]]);
  });

  it('when the body is not JSON by its Content-Type or charset, answers 415 (4150)', async () => {
    const { token, workspace } = await adminWorld(server);
    const url = `${server.url}/api/workspace/${workspace.workspaceId}/api-keys`;
    const json = JSON.stringify({ name: 'Typed key' });
    const plain = await sendBody(url, token, 'POST', json, { 'content-type': 'text/plain' });
    expect([plain.status, plain.body]).toEqual([415, { code: 4150, messages: 'Unsupported media type: send the body as application/json.', data: null }]);
    const latin1 = await sendBody(url, token, 'POST', json, { 'content-type': 'application/json; charset=latin1' });
    expect([latin1.status, latin1.body]).toEqual([415, { code: 4150, messages: 'Unsupported charset: send the body as UTF-8 JSON.', data: null }]);
  });
});
