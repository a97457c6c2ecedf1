import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { sendRaw } from '../../support/http.js';
import { useTestServer } from '../../support/test-server.js';
import { NOW, seedManyAnswers } from './fixture.js';

const server = useTestServer({ now: () => NOW });
let ws: TestWorkspace;
beforeAll(async () => {
  ws = await createTestWorkspace(server.store);
  await seedManyAnswers(server, ws, 400);
});

const DECODE: Record<string, (bytes: Buffer) => Buffer> = { gzip: gunzipSync, br: brotliDecompressSync };

/** The same request without compression, then with each encoding: every body decodes to the same bytes. */
async function expectSameBytesEachEncoding(path: string): Promise<Buffer> {
  const auth = { authorization: `Bearer ${ws.key}` };
  const plain = await sendRaw(server.url, { path, headers: { ...auth, 'accept-encoding': 'identity' } });
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  for (const encoding of ['gzip', 'br']) {
    const res = await sendRaw(server.url, { path, headers: { ...auth, 'accept-encoding': encoding } });
    expect([res.status, res.headers['content-encoding']]).toEqual([200, encoding]);
    expect(res.headers.vary).toContain('Accept-Encoding');
    // Text this repetitive shrinks to a fraction; a tiny file may grow by the encoding's framing.
    if (plain.body.length > 4096) expect(res.body.length).toBeLessThan(plain.body.length / 3);
    expect(DECODE[encoding]!(res.body).equals(plain.body)).toBe(true);
  }
  return plain.body;
}

describe('response compression (Accept-Encoding: gzip, br)', () => {
  it('when a JSON answer is over 1 KiB, gzip and br decode to exactly the uncompressed bytes', async () => {
    const body = await expectSameBytesEachEncoding('/api/v1/visibility/answers?range=7d&limit=100');
    expect(body.length).toBeGreaterThan(64 * 1024);
  });

  it('when the answers export streams as CSV or NDJSON over many chunks, gzip and br decode to exactly the same file', async () => {
    for (const format of ['csv', 'ndjson']) {
      const body = await expectSameBytesEachEncoding(`/api/v1/visibility/exports/answers${format === 'csv' ? '' : '.ndjson'}?range=7d`);
      expect(body.length).toBeGreaterThan(4 * 64 * 1024);
      expect(body.toString('utf8').trimEnd().split(format === 'csv' ? '\r\n' : '\n')).toHaveLength(format === 'csv' ? 401 : 400);
    }
  });

  it('when the daily-rates export is asked for compressed, decodes to the same file, however small (its length is not known when it starts)', async () => {
    for (const format of ['csv', 'ndjson']) await expectSameBytesEachEncoding(`/api/v1/visibility/exports/daily-rates${format === 'csv' ? '' : '.ndjson'}?range=7d`);
  });

  it('when the answer is under 1 KiB, sends it as it is even if compression is accepted', async () => {
    const res = await sendRaw(server.url, { path: '/api/v1/me', headers: { authorization: `Bearer ${ws.key}`, 'accept-encoding': 'gzip, br' } });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ code: 4020 });
  });

  it('without Accept-Encoding, sends every answer as it is and still names Accept-Encoding in Vary: reads, errors and pages alike', async () => {
    const auth = { authorization: `Bearer ${ws.key}` };
    const asked = [
      { path: '/api/v1/visibility/answers?range=7d&limit=100', headers: auth, status: 200, vary: 'Authorization, X-API-KEY, Accept-Encoding' },
      { path: '/api/v1/visibility/exports/answers?range=7d&format=csv', headers: auth, status: 200, vary: 'Authorization, X-API-KEY, Accept-Encoding' },
      { path: '/api/v1/nothing-here', headers: auth, status: 404, vary: 'Authorization, X-API-KEY, Accept-Encoding' },
      { method: 'POST', path: '/api/v1/me', headers: auth, status: 405, vary: 'Accept-Encoding' },
      { path: '/docs', headers: {}, status: 200, vary: 'Accept-Encoding' },
    ];
    for (const { status, vary, ...request } of asked) {
      // sendRaw sends only the headers given: no Accept-Encoding.
      const res = await sendRaw(server.url, request);
      expect([request.path, res.status, res.headers['content-encoding'], res.headers.vary]).toEqual([request.path, status, undefined, vary]);
    }
  });

  it('when both are accepted, prefers br', async () => {
    const res = await sendRaw(server.url, { path: '/api/v1/visibility/answers?range=7d&limit=100', headers: { authorization: `Bearer ${ws.key}`, 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.headers['content-encoding']).toBe('br');
  });
});
