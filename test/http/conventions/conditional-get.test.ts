import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { parseRateLimit, send, sendRaw, type ObservedResponse } from '../../support/http.js';
import { promptLine, snapshotLine } from '../../support/import-records.js';
import { useTestServer } from '../../support/test-server.js';
import { importRecords } from '../../support/visibility.js';
import { NOW, seedManyAnswers } from './fixture.js';

const server = useTestServer({ now: () => NOW });

const get = (ws: TestWorkspace, path: string, headers: Record<string, string> = {}) => send(server.url, { path, headers }, ws.key);

/** A second request with the first one's tag: 304, no body, the same tag, and counted. */
async function expectNotModified(ws: TestWorkspace, path: string, first: ObservedResponse): Promise<void> {
  const etag = first.headers.get('etag')!;
  const again = await get(ws, path, { 'if-none-match': etag });
  expect([again.status, again.text, again.headers.get('etag')]).toEqual([304, '', etag]);
  expect(again.headers.get('content-type')).toBeNull();
  expect(again.headers.get('ratelimit-policy')).toBe('"workspace";q=120;w=60');
  expect(parseRateLimit(again.headers.get('ratelimit')).r).toBe(parseRateLimit(first.headers.get('ratelimit')).r - 1);
  expect(again.headers.get('cache-control')).toBe('private, no-cache');
}

describe('conditional reads (ETag, If-None-Match)', () => {
  it('when a JSON read answers 200, carries a weak ETag, Cache-Control: private, no-cache and Vary on both key headers and the encoding', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await get(ws, '/api/v1/visibility/prompts');
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.headers.get('vary')).toBe('Authorization, X-API-KEY, Accept-Encoding');
  });

  it('when If-None-Match matches a JSON read, answers 304 without a body; after an import changes the data, 200 with a new tag', async () => {
    const ws = await createTestWorkspace(server.store);
    const prompt = promptLine({ text: 'Best CRM?' });
    await importRecords(server.store, ws, [prompt]);
    const path = '/api/v1/visibility/prompts';
    const first = await get(ws, path);
    await expectNotModified(ws, path, first);
    // A list of tags, and a tag sent without its weak prefix, match too.
    expect((await get(ws, path, { 'if-none-match': `"nope", ${first.headers.get('etag')}` })).status).toBe(304);
    expect((await get(ws, path, { 'if-none-match': first.headers.get('etag')!.slice(2) })).status).toBe(304);

    await importRecords(server.store, ws, [promptLine({ id: prompt.id, text: 'Best CRM for a small team?' })]);
    const changed = await get(ws, path, { 'if-none-match': first.headers.get('etag')! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect((changed.body as { data: { items: Array<{ text: string }> } }).data.items.map((p) => p.text)).toEqual(['Best CRM for a small team?']);
  });

  it('when If-None-Match matches an export, answers 304 from the data version and the query alone; after an import adds an answer, 200 with a new tag', async () => {
    const ws = await createTestWorkspace(server.store);
    const { promptId } = await seedManyAnswers(server, ws, 3);
    const path = '/api/v1/visibility/exports/answers.ndjson?range=7d';
    const first = await get(ws, path);
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect(first.text.trimEnd().split('\n')).toHaveLength(3);
    await expectNotModified(ws, path, first);

    // Another operation is another file, with another tag.
    const csv = await get(ws, '/api/v1/visibility/exports/answers?range=7d&format=csv');
    expect(csv.headers.get('etag')).not.toBe(first.headers.get('etag'));
    // An import that changes nothing keeps the tag.
    await importRecords(server.store, ws, [promptLine({ id: promptId, text: 'Which analytics tool should a startup pick?' })]);
    expect((await get(ws, path, { 'if-none-match': first.headers.get('etag')! })).status).toBe(304);

    await importRecords(server.store, ws, [snapshotLine({ prompt_id: promptId, collected_at: '2026-11-22T11:00:00.000Z', answer: 'A new answer.' })]);
    const changed = await get(ws, path, { 'if-none-match': first.headers.get('etag')! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect(changed.text.trimEnd().split('\n')).toHaveLength(4);
  });

  it('when the daily-rates export is conditional, answers 304 until an import changes the answers', async () => {
    const ws = await createTestWorkspace(server.store);
    const { promptId } = await seedManyAnswers(server, ws, 2);
    const path = '/api/v1/visibility/exports/daily-rates?range=7d';
    const first = await get(ws, path);
    await expectNotModified(ws, path, first);
    await importRecords(server.store, ws, [snapshotLine({ prompt_id: promptId, collected_at: '2026-11-21T11:00:00.000Z', mentioned: false })]);
    expect((await get(ws, path, { 'if-none-match': first.headers.get('etag')! })).status).toBe(200);
  });

  it('when If-None-Match names another tag, answers 200 with the body', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await get(ws, '/api/v1/workspace', { 'if-none-match': 'W/"something-else"' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: 2000 });
  });

  it('when the operation documents no 304 (the usage counts the request itself), If-None-Match: * or its own tag still gets 200 with the body, on GET and HEAD', async () => {
    const ws = await createTestWorkspace(server.store);
    const path = '/api/v1/workspace/usage';
    const first = await get(ws, path, { 'if-none-match': '*' });
    expect([first.status, (first.body as { code: number }).code]).toEqual([200, 2000]);
    expect((await get(ws, path, { 'if-none-match': first.headers.get('etag')! })).status).toBe(200);
    const head = await send(server.url, { method: 'HEAD', path, headers: { 'if-none-match': '*' } }, ws.key);
    expect([head.status, head.text]).toEqual([200, '']);
  });

  it('when If-None-Match: * comes without the Cache-Control: no-cache that fetch adds (as curl sends it), the usage still answers 200 on GET and HEAD', async () => {
    const ws = await createTestWorkspace(server.store);
    const headers = { authorization: `Bearer ${ws.key}`, 'if-none-match': '*' };
    const got = await sendRaw(server.url, { path: '/api/v1/workspace/usage', headers });
    expect([got.status, got.body.toString('utf8').slice(0, 20)]).toEqual([200, '{"code":2000,"messag']);
    const head = await sendRaw(server.url, { method: 'HEAD', path: '/api/v1/workspace/usage', headers });
    expect([head.status, head.body.length]).toEqual([200, 0]);
    // Where the operation documents a 304, the same header still gets it.
    expect((await sendRaw(server.url, { path: '/api/v1/visibility/prompts', headers })).status).toBe(304);
  });

  it('when the answer is an error, carries no ETag and If-None-Match: * does not hide it', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await get(ws, '/api/v1/visibility/prompts?range=1y', { 'if-none-match': '*' });
    expect(res.status).toBe(422);
    expect(res.headers.get('etag')).toBeNull();
  });
});
