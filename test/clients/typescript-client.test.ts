import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError, verifyWebhook, WebhookVerificationError, WorkspaceClient } from '../../clients/typescript/src/index.js';
import { createTestWebhook, newWebhookSecret } from '../support/webhooks.js';
import { createTestWorkspace, type TestWorkspace } from '../support/accounts.js';
import { promptLine } from '../support/import-records.js';
import { startTestServer, startTestServerForThisTest, type TestServer } from '../support/test-server.js';
import { importRecords } from '../support/visibility.js';
import { emit, receiver, startDeliveryWorld } from '../integration/webhooks-delivery/helpers.js';

// The official client (clients/typescript/) against a live server on loopback, as a client team uses it.
let server: TestServer;
let ws: TestWorkspace;

beforeAll(async () => {
  server = await startTestServer({ rateLimit: { quota: 100_000, windowSeconds: 60, authFailureQuota: 100_000 } });
  ws = await createTestWorkspace(server.store);
});
afterAll(() => server.close());

const clientFor = (url: string, key: string, options: Partial<ConstructorParameters<typeof WorkspaceClient>[0]> = {}) =>
  new WorkspaceClient({ apiKey: key, baseUrl: url, ...options });

describe('WorkspaceClient (clients/typescript)', () => {
  it('walks every page of a list with for await: 250 prompts in pages of 100, each once', async () => {
    const lines = Array.from({ length: 250 }, (_, i) => promptLine({ text: `Prompt ${String(i).padStart(3, '0')}` }));
    await importRecords(server.store, ws, lines);
    const pages: string[] = [];
    const client = clientFor(server.url, ws.key, { fetch: (input, init) => { pages.push(new Request(input, init).url); return fetch(input, init); } });
    const texts: string[] = [];
    for await (const prompt of client.list('/api/v1/visibility/prompts', { query: { limit: 100 } })) texts.push(prompt.text);
    expect(texts).toHaveLength(250);
    expect(new Set(texts).size).toBe(250);
    expect(pages).toHaveLength(3);
    expect(pages.slice(1).every((url) => new URL(url).searchParams.has('cursor'))).toBe(true);
    // The typed read of one of them, by its id.
    const first = (await client.get('/api/v1/visibility/prompts', { query: { limit: 1 } })).items[0]!;
    const analytics = await client.get('/api/v1/visibility/prompts/{prompt}', { path: { prompt: first.id }, query: { range: '7d' } });
    expect(analytics.overview.prompt.id).toBe(first.id);
  });

  it("runs the README's ten lines: every prompt with its analytics", async () => {
    const readme = readFileSync(new URL('../../clients/typescript/README.md', import.meta.url), 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    const example = new URL('../../clients/typescript/examples/prompts-with-analytics.ts', import.meta.url);
    expect(readFileSync(example, 'utf8')).toContain(block.replace("from '@workspace-read-api/client'", "from '../src/index.js'"));
    const own = await createTestWorkspace(server.store);
    await importRecords(server.store, own, [promptLine({ text: 'Which CRM?' }), promptLine({ text: 'Which analytics tool?' })]);
    vi.stubEnv('WORKSPACE_API_KEY', own.key);
    vi.stubEnv('WORKSPACE_API_URL', server.url);
    const printed: unknown[][] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => { printed.push(args); });
    try {
      await import(example.href);
    } finally {
      log.mockRestore();
      vi.unstubAllEnvs();
    }
    expect(printed.map((line) => line[0]).sort()).toEqual(['Which CRM?', 'Which analytics tool?']);
    expect(printed.every((line) => line.length === 4 && line[3] === 0)).toBe(true);
  });

  it('when the rate limit answers 429, waits the Retry-After it names and sends the request again', async () => {
    const limited = await startTestServerForThisTest({ store: server.store, rateLimit: { quota: 2, windowSeconds: 2, authFailureQuota: 100_000 } });
    const retries: Array<{ status: number; waitSeconds: number }> = [];
    const client = clientFor(limited.url, ws.key, { onRetry: ({ status, waitSeconds }) => retries.push({ status, waitSeconds }) });
    const started = Date.now();
    for (let i = 0; i < 3; i++) expect((await client.get('/api/v1/me')).workspace.id).toBe(ws.workspaceId);
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(retries[0]!.status).toBe(429);
    expect(retries[0]!.waitSeconds).toBeGreaterThanOrEqual(1);
    expect(retries[0]!.waitSeconds).toBeLessThanOrEqual(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(retries[0]!.waitSeconds * 1000);

    // With no retry allowed, the 429 is the caller's, as an ApiError carrying the envelope.
    const impatient = clientFor(limited.url, ws.key, { maxRetries: 0 });
    const refused = await Promise.all([1, 2, 3].map(() => impatient.get('/api/v1/me').then(() => null, (e: unknown) => e)));
    const error = refused.find((e) => e !== null);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 4290, data: null });
  });

  it('turns every error into an ApiError with the envelope, the status and X-Request-Id', async () => {
    const client = clientFor(server.url, ws.key);
    const missing = await client.get('/api/v1/visibility/prompts/{prompt}', { path: { prompt: randomUUID() } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404, code: 4040, data: null, messages: expect.any(String) });
    expect((missing as ApiError).requestId).toMatch(/.+/);

    const invalid = await client.get('/api/v1/visibility/prompts', { query: { limit: 0 } }).catch((e: unknown) => e) as ApiError;
    expect(invalid).toMatchObject({ status: 422, code: 4220 });
    expect(invalid.data).toEqual({ errors: [expect.objectContaining({ in: 'query', name: 'limit' })] });

    const wrongKey = await clientFor(server.url, 'wsk_live_unknown').get('/api/v1/me').catch((e: unknown) => e);
    expect(wrongKey).toMatchObject({ status: 401, code: 4022 });
  });

  it('with conditional reads, repeats a GET with If-None-Match and answers the 304 from its copy', async () => {
    const statuses: number[] = [];
    const client = clientFor(server.url, ws.key, {
      conditionalReads: true,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        statuses.push(res.status);
        return res;
      },
    });
    const first = await client.get('/api/v1/visibility/setup');
    const second = await client.get('/api/v1/visibility/setup');
    expect(second).toEqual(first);
    expect(statuses).toEqual([200, 304]);
  });

  it('downloads an export in each format as text', async () => {
    const client = clientFor(server.url, ws.key);
    expect((await client.download('/api/v1/visibility/exports/daily-rates', { query: { range: '7d' } })).split('\r\n')[0]).toBe('date,snapshots,mentioned,cited,mention_rate,citation_rate');
    expect(await client.download('/api/v1/visibility/exports/answers.ndjson', { query: { range: '7d' } })).toBe('');
  });
});

describe('verifyWebhook (clients/typescript)', () => {
  it('verifies a real delivery by both signatures and answers its event; refuses a tampered body, a wrong secret and an old timestamp', async () => {
    const { store, workspace } = await startDeliveryWorld();
    const secret = newWebhookSecret();
    const hooks = await receiver();
    await createTestWebhook(store, workspace, { url: hooks.url, secret });
    await emit(store, workspace.workspaceId, 'topic.status_updated', { name: 'AI search visibility', stage: 'READY' });
    const [delivery] = await hooks.waitForRequests(1, 10_000);
    const event = verifyWebhook(delivery!.rawBody, delivery!.headers, secret);
    expect(event).toMatchObject({ event: 'topic.status_updated', data: { name: 'AI search visibility', stage: 'READY' } });

    const tampered = delivery!.rawBody.replace('READY', 'PROCESSING');
    expect(() => verifyWebhook(tampered, delivery!.headers, secret)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(delivery!.rawBody, delivery!.headers, newWebhookSecret())).toThrow(/X-Webhook-Signature does not match/);
    // Standard Webhooks alone (X-Webhook-Signature dropped): still checked, timestamp included.
    const { 'x-webhook-signature': _dropped, ...standardOnly } = delivery!.headers;
    expect(verifyWebhook(delivery!.rawBody, standardOnly, secret)).toMatchObject({ event: 'topic.status_updated' });
    const later = new Date(Number(delivery!.headers['webhook-timestamp']) * 1000 + 301_000);
    expect(() => verifyWebhook(delivery!.rawBody, standardOnly, secret, { now: later })).toThrow(/outside the tolerance/);
    expect(() => verifyWebhook(delivery!.rawBody, { 'content-type': 'application/json' }, secret)).toThrow(/no signature/);
  });
});
