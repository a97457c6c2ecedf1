import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { bootstrapDemo } from '../../src/demo/bootstrap.js';
import { generateDemoData } from '../../src/demo/generate-demo-data.js';
import { importLines } from '../../src/import/import-ndjson.js';
import openapi from '../../generated/openapi.json' with { type: 'json' };
import { createTestKey, createTestWorkspace } from '../support/accounts.js';
import { createTestMemberToken } from '../support/admin.js';
import { clientProject, importClient, type ClientProject } from '../support/packed-client.js';
import { NO_RATE_LIMIT, startSqliteTestServer, startTestServerForThisTest, useTestServer } from '../support/test-server.js';
import { holdWriteLock } from '../support/write-lock.js';

// The official client as a team gets it: packed (`npm pack`), installed from the tarball into a
// project outside the checkout, loaded through its package `exports`, against the service on
// loopback over the demo workspace of `npm start`.
type Client = Awaited<ReturnType<typeof importClient>>;
let project: ClientProject;
let C: Client;
const server = useTestServer({ allowPrivateWebhookTargets: true, rateLimit: NO_RATE_LIMIT });
let demo: { key: string; workspaceId: string };

beforeAll(async () => {
  const made = (await bootstrapDemo(server.store, async (s, workspaceId) => {
    await importLines(s, workspaceId, generateDemoData({ seed: 7, prompts: 5, days: 14, answersPerDay: 1, idNamespace: workspaceId }));
  }))!;
  demo = { key: made.key, workspaceId: made.workspace_id };
  project = await clientProject();
  C = await importClient(project);
}, 180_000);
afterAll(() => {
  project?.cleanup();
});

/** A fetch that records each request's method, URL, status and headers as sent. */
function recordingFetch() {
  const seen: Array<{ method: string; url: string; status: number; headers: Headers }> = [];
  const fetchAndRecord = async (url: string, init: RequestInit) => {
    const response = await fetch(url, init);
    seen.push({ method: init.method ?? 'GET', url, status: response.status, headers: new Headers(init.headers) });
    return response;
  };
  return { seen, fetch: fetchAndRecord };
}

/** A loopback HTTP server for the test, closed when it ends. */
async function loopback(handler: http.RequestListener): Promise<string> {
  const s = http.createServer(handler);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => {
    s.closeAllConnections();
    s.close(() => resolve());
  }));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

const readBody = (req: http.IncomingMessage): Promise<Buffer> => new Promise((resolve) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => resolve(Buffer.concat(chunks)));
});

/** Sends a request on to the service and hands its whole answer to `reply`. */
function forward(req: http.IncomingMessage, body: Buffer, reply: (status: number, headers: http.IncomingHttpHeaders, answer: Buffer) => void): void {
  const upstream = http.request(`${server.url}${req.url}`, { method: req.method, headers: req.headers }, (res) => {
    void readBody(res).then((answer) => reply(res.statusCode!, res.headers, answer));
  });
  upstream.end(body);
}

describe('WorkspaceClient, packed and installed, against a live server', () => {
  it('reads every JSON GET of the read API by its path template, lists before the reads by id', { timeout: 120_000 }, async () => {
    const api = new C.WorkspaceClient({ apiKey: demo.key, baseUrl: server.url });
    const reads = Object.entries(openapi.paths as Record<string, { get?: { responses: Record<string, { content?: object }> } }>)
      .filter(([path, item]) => path.startsWith('/api/v1/') && item.get && 'application/json' in (item.get.responses['200']?.content ?? {}))
      .sort(([a], [b]) => (a.match(/\{/g) ?? []).length - (b.match(/\{/g) ?? []).length || a.localeCompare(b));
    const answers = new Map<string, unknown>();
    for (const [path] of reads) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const params: Record<string, string> = {};
      if (names.length > 0) {
        const list = answers.get(path.slice(0, path.lastIndexOf('/{'))) as { items: Array<{ id: string }> };
        params[names[0]!] = list.items[0]!.id;
      }
      const data = await api.get(path as '/api/v1/me', { path: params } as never);
      expect(data, path).toBeTypeOf('object');
      answers.set(path, data);
    }
    expect(reads.length).toBeGreaterThan(30);
    expect(answers.size).toBe(reads.length);
    // Typed: the envelope's data, by path.
    const me = await api.get('/api/v1/me');
    expect(me.workspace.id).toBe(demo.workspaceId);
  });

  it("walks every page with for await, and a page at a time with each page's metadata", async () => {
    const recorded = recordingFetch();
    const api = new C.WorkspaceClient({ apiKey: demo.key, baseUrl: server.url, fetch: recorded.fetch });
    const ids: string[] = [];
    for await (const prompt of api.list('/api/v1/visibility/prompts', { query: { limit: 2 } })) ids.push(prompt.id);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    expect(recorded.seen.map((r) => new URL(r.url).searchParams.has('cursor'))).toEqual([false, true, true]);
    const pages = [];
    for await (const page of api.pages('/api/v1/visibility/prompts', { query: { limit: 2 } })) pages.push(page);
    expect(pages.map((p) => p.data.items.length)).toEqual([2, 2, 1]);
    expect(pages.flatMap((p) => p.data.items.map((i) => i.id))).toEqual(ids);
    expect(pages[0]!.meta).toMatchObject({ status: 200, etag: expect.stringMatching(/^W\/"/), requestId: expect.any(String), rateLimit: { limit: NO_RATE_LIMIT.quota, windowSeconds: NO_RATE_LIMIT.windowSeconds } });
    // An event feed always gives a cursor and ends at has_more: false.
    const events = [];
    for await (const event of api.list('/api/v1/content/events', { query: { limit: 100 } })) events.push(event);
    expect(events.length).toBeGreaterThan(0);
  });

  it('with conditional reads, answers a 304 from the kept copy and keeps at most maxEntries copies; an explicit ifNoneMatch answers "not modified", no body', async () => {
    const recorded = recordingFetch();
    const api = new C.WorkspaceClient({ apiKey: demo.key, baseUrl: server.url, fetch: recorded.fetch, conditionalReads: { maxEntries: 2 } });
    const first = await api.get('/api/v1/visibility/setup');
    expect(await api.get('/api/v1/visibility/setup')).toEqual(first);
    await api.get('/api/v1/visibility/rates');
    await api.get('/api/v1/visibility/competitors');
    // Three URLs in two places: the first one's copy went, so it is read whole again.
    await api.get('/api/v1/visibility/setup');
    expect(recorded.seen.map((r) => r.status)).toEqual([200, 304, 200, 200, 200]);
    expect(recorded.seen[1]!.headers.get('if-none-match')).toMatch(/^W\/"/);
    expect(recorded.seen[4]!.headers.has('if-none-match')).toBe(false);

    const plain = new C.WorkspaceClient({ apiKey: demo.key, baseUrl: server.url });
    const { meta } = await plain.getWithMeta('/api/v1/visibility/rates', { query: { range: '7d' } });
    const again = await plain.getWithMeta('/api/v1/visibility/rates', { query: { range: '7d' }, ifNoneMatch: meta.etag! });
    expect(again).toMatchObject({ notModified: true, data: undefined, meta: { status: 304, etag: meta.etag } });
    const other = await plain.getWithMeta('/api/v1/visibility/rates', { query: { range: '30d' }, ifNoneMatch: meta.etag! });
    expect(other.notModified).toBe(false);
    expect(other.data?.range).toBe('30d');
  });

  it('downloads an export in each format and reads its headers by HEAD', async () => {
    const api = new C.WorkspaceClient({ apiKey: demo.key, baseUrl: server.url });
    const csv = await api.download('/api/v1/visibility/exports/daily-rates', { query: { range: '7d' } });
    expect(csv.split('\r\n')[0]).toBe('date,snapshots,mentioned,cited,mention_rate,citation_rate');
    const ndjson = await api.download('/api/v1/visibility/exports/answers.ndjson', { query: { range: '7d' } });
    const answers = await api.downloadLines('/api/v1/visibility/exports/answers.ndjson', { query: { range: '7d' } });
    expect(answers.length).toBeGreaterThan(0);
    expect(answers).toEqual(ndjson.trim().split('\n').map((line) => JSON.parse(line)));
    // Each line typed as the contract's Answer.
    expect(answers.every((answer) => typeof answer.prompt.id === 'string' && typeof answer.mentioned === 'boolean')).toBe(true);
    const head = await api.head('/api/v1/visibility/exports/answers', { query: { range: '30d' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-disposition')).toMatch(/attachment; filename="answers-30d-\d{4}-\d{2}-\d{2}\.csv"/);
    expect((await api.head('/api/v1/me')).etag).toMatch(/^W\//);
  });
});

describe('WorkspaceClient errors: one class per kind, with the envelope', () => {
  it('401, 402, 403, 404 and 422 are AuthenticationError, PaymentRequiredError, PermissionError, NotFoundError and ValidationError', async () => {
    const api = new C.WorkspaceClient({ apiKey: demo.key, baseUrl: server.url });
    const unauthenticated = await new C.WorkspaceClient({ apiKey: 'wsk_live_unknown', baseUrl: server.url }).get('/api/v1/me').catch((e: unknown) => e);
    expect(unauthenticated).toBeInstanceOf(C.AuthenticationError);
    expect(unauthenticated).toMatchObject({ name: 'AuthenticationError', status: 401, code: 4022, requestId: expect.any(String) });

    const unpaidWorkspace = await createTestWorkspace(server.store, { subscription: 'canceled' });
    const unpaid = await new C.WorkspaceClient({ apiKey: unpaidWorkspace.key, baseUrl: server.url }).get('/api/v1/visibility/setup').catch((e: unknown) => e);
    expect(unpaid).toBeInstanceOf(C.PaymentRequiredError);
    expect(unpaid).toMatchObject({ status: 402, code: 1916 });

    const narrow = await createTestKey(server.store, await createTestWorkspace(server.store), { scopes: ['visibility:read'] });
    const forbidden = await new C.WorkspaceClient({ apiKey: narrow.key, baseUrl: server.url }).get('/api/v1/workspace').catch((e: unknown) => e) as InstanceType<Client['PermissionError']>;
    expect(forbidden).toBeInstanceOf(C.PermissionError);
    expect({ code: forbidden.code, required: forbidden.required, missing: forbidden.missing }).toEqual({ code: 4023, required: ['workspace:read'], missing: ['workspace:read'] });

    const missing = await api.get('/api/v1/visibility/prompts/{prompt}', { path: { prompt: randomUUID() } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(C.NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 4040, data: null, messages: expect.any(String) });

    const invalid = await api.get('/api/v1/visibility/prompts', { query: { limit: 0 } }).catch((e: unknown) => e) as InstanceType<Client['ValidationError']>;
    expect(invalid).toBeInstanceOf(C.ValidationError);
    expect(invalid).toBeInstanceOf(C.ApiError);
    expect(invalid.code).toBe(4220);
    expect(invalid.fieldErrors).toEqual([{ in: 'query', name: 'limit', message: expect.any(String) }]);
  });

  it('a 409 is a ConflictError; a 503 from the service is an UnavailableError with its Retry-After', async () => {
    const sqlite = await startSqliteTestServer();
    onTestFinished(() => sqlite.close());
    const workspace = await createTestWorkspace(sqlite.store);
    const { token } = await createTestMemberToken(sqlite.store, workspace);
    const owner = new C.WorkspaceClient({ apiKey: token, baseUrl: sqlite.url, maxRetries: 0 });
    // The workspace's only owner cannot be removed.
    const conflict = await owner.admin.removeMember({ path: { workspace_id: workspace.workspaceId, user_id: workspace.ownerId } }).catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(C.ConflictError);
    expect(conflict).toMatchObject({ status: 409, code: 4090 });

    // An import holds the database's write lock: a change is refused with 503 and Retry-After.
    const lock = holdWriteLock(sqlite.store.db.name);
    try {
      const unavailable = await owner.admin.createApiKey({ path: { workspace_id: workspace.workspaceId }, body: { name: 'During an import' } })
        .catch((e: unknown) => e) as InstanceType<Client['UnavailableError']>;
      expect(unavailable).toBeInstanceOf(C.UnavailableError);
      expect({ status: unavailable.status, code: unavailable.code, retryAfter: unavailable.retryAfter }).toEqual({ status: 503, code: 5030, retryAfter: expect.any(Number) });
    } finally {
      lock.release();
    }
  });

  it('a 429 is waited out for the Retry-After it names, and is a RateLimitError with retryAfter once the retries are spent', async () => {
    const workspace = await createTestWorkspace(server.store);
    const limited = await startTestServerForThisTest({ store: server.store, rateLimit: { quota: 2, windowSeconds: 2, authFailureQuota: 100_000 } });
    const retries: Array<{ status: number | null; waitSeconds: number }> = [];
    const api = new C.WorkspaceClient({ apiKey: workspace.key, baseUrl: limited.url, onRetry: ({ status, waitSeconds }) => retries.push({ status, waitSeconds }) });
    const started = Date.now();
    for (let i = 0; i < 3; i++) expect((await api.get('/api/v1/me')).workspace.id).toBe(workspace.workspaceId);
    expect(retries[0]).toEqual({ status: 429, waitSeconds: expect.any(Number) });
    expect(retries[0]!.waitSeconds).toBeGreaterThanOrEqual(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(retries[0]!.waitSeconds * 1000);

    const impatient = new C.WorkspaceClient({ apiKey: workspace.key, baseUrl: limited.url, maxRetries: 0 });
    const refused = (await Promise.all([1, 2, 3].map(() => impatient.get('/api/v1/me').then(() => null, (e: unknown) => e)))).find((e) => e !== null);
    expect(refused).toBeInstanceOf(C.RateLimitError);
    expect(refused).toMatchObject({ status: 429, code: 4290, retryAfter: expect.any(Number) });
  });
});

describe('WorkspaceClient timeouts, cancellation and retries', () => {
  it('gives up on a server that accepts and never answers after the timeout of each attempt, with a TimeoutError', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      silent.close(() => resolve());
    }));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const retried: Array<number | null> = [];
    const api = new C.WorkspaceClient({ apiKey: demo.key, baseUrl: url, timeout: 300, maxRetries: 1, onRetry: ({ status }) => retried.push(status) });
    const started = Date.now();
    const error = await api.get('/api/v1/me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(C.TimeoutError);
    expect(error).toBeInstanceOf(C.ConnectionError);
    expect(retried).toEqual([null]);
    expect(sockets.size).toBeGreaterThanOrEqual(2);
    expect(Date.now() - started).toBeLessThan(5_000);
    // A call's own timeout wins over the client's.
    const own = Date.now();
    await expect(new C.WorkspaceClient({ apiKey: demo.key, baseUrl: url, maxRetries: 0 }).get('/api/v1/me', { timeout: 200 })).rejects.toBeInstanceOf(C.TimeoutError);
    expect(Date.now() - own).toBeLessThan(3_000);
  });

  it("aborts a call while it waits out the service's Retry-After, at once, with the signal's reason", async () => {
    const workspace = await createTestWorkspace(server.store);
    const limited = await startTestServerForThisTest({ store: server.store, rateLimit: { quota: 1, windowSeconds: 60, authFailureQuota: 100_000 } });
    const waits: number[] = [];
    const api = new C.WorkspaceClient({ apiKey: workspace.key, baseUrl: limited.url, onRetry: ({ waitSeconds }) => waits.push(waitSeconds) });
    await api.get('/api/v1/me');
    const controller = new AbortController();
    const call = api.get('/api/v1/me', { signal: controller.signal }).catch((e: unknown) => e);
    while (waits.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    const aborted = Date.now();
    controller.abort();
    const error = await call;
    expect(Date.now() - aborted).toBeLessThan(500);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(waits[0]).toBeGreaterThan(50);
  });

  it('retries a broken connection, a 502 and a 504 with backoff until a GET succeeds', async () => {
    let n = 0;
    const proxy = await loopback((req, res) => {
      n += 1;
      if (n === 1) return void req.socket.destroy();
      if (n === 2) return void res.writeHead(502).end('<html>Bad gateway</html>');
      if (n === 3) return void res.writeHead(504).end();
      void readBody(req).then((body) => forward(req, body, (status, headers, answer) => res.writeHead(status, headers).end(answer)));
    });
    const retried: Array<number | null> = [];
    const api = new C.WorkspaceClient({ apiKey: demo.key, baseUrl: proxy, onRetry: ({ status }) => retried.push(status) });
    expect((await api.get('/api/v1/me')).workspace.id).toBe(demo.workspaceId);
    expect(retried).toEqual([null, 502, 504]);
    // With no retry allowed, a proxy's page is an UnavailableError without an envelope.
    n = 1;
    const error = await new C.WorkspaceClient({ apiKey: demo.key, baseUrl: proxy, maxRetries: 0 }).get('/api/v1/me').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(C.UnavailableError);
    expect(error).toMatchObject({ status: 502, code: null });
  });
});

describe('WorkspaceClient administration API: generated methods, one Idempotency-Key per POST across its retries', () => {
  /**
   * A proxy in front of the service that lets the first POST reach it, waits until the service
   * answered (the change committed), then breaks the connection instead of passing the answer on.
   */
  async function proxyLosingFirstAnswer() {
    const posts: Array<{ key: string | undefined; status: number; replayed: string | undefined }> = [];
    const url = await loopback((req, res) => {
      void readBody(req).then((body) => forward(req, body, (status, headers, answer) => {
        if (req.method === 'POST') {
          posts.push({ key: req.headers['idempotency-key'] as string | undefined, status, replayed: headers['idempotent-replayed'] as string | undefined });
          if (posts.length === 1) return void req.socket.destroy();
        }
        res.writeHead(status, headers).end(answer);
      }));
    });
    return { url, posts };
  }

  async function ownerOf() {
    const workspace = await createTestWorkspace(server.store);
    const { token } = await createTestMemberToken(server.store, workspace);
    return { workspace, token, direct: new C.WorkspaceClient({ apiKey: token, baseUrl: server.url }) };
  }

  it('a POST whose answer was lost after it committed is sent again under the same key and answered with the first answer', async () => {
    const { workspace, token, direct } = await ownerOf();
    const hooks = await loopback((_req, res) => res.writeHead(204).end());
    const { webhook } = await direct.admin.createWebhook({
      path: { workspace_id: workspace.workspaceId },
      body: { name: 'Receiver', url: `${hooks}/hooks`, events: ['content.status_updated'] },
    });
    const proxy = await proxyLosingFirstAnswer();
    const api = new C.WorkspaceClient({ apiKey: token, baseUrl: proxy.url });
    const disabled = await api.adminWithMeta.disableWebhook({ path: { workspace_id: workspace.workspaceId, webhook_id: webhook.id } });
    expect(disabled.notModified).toBe(false);
    expect(disabled.data?.enabled).toBe(false);
    expect(disabled.meta.replayed).toBe(true);
    expect(proxy.posts).toEqual([
      { key: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/), status: 200, replayed: undefined },
      { key: proxy.posts[0]!.key, status: 200, replayed: 'true' },
    ]);
  });

  it('a create whose lost answer carried a secret is a SecretShownOnceError naming what was created', async () => {
    const { workspace, token, direct } = await ownerOf();
    const proxy = await proxyLosingFirstAnswer();
    const api = new C.WorkspaceClient({ apiKey: token, baseUrl: proxy.url });
    const error = await api.admin.createApiKey({ path: { workspace_id: workspace.workspaceId }, body: { name: 'Dashboard', scopes: ['visibility:read'] } })
      .catch((e: unknown) => e) as InstanceType<Client['SecretShownOnceError']>;
    expect(error).toBeInstanceOf(C.SecretShownOnceError);
    expect(error).toBeInstanceOf(C.ConflictError);
    expect(proxy.posts.map((p) => [p.status, p.replayed])).toEqual([[201, undefined], [409, 'true']]);
    expect(proxy.posts[1]!.key).toBe(proxy.posts[0]!.key);
    const dashboards = (await direct.admin.listApiKeys({ path: { workspace_id: workspace.workspaceId } })).items.filter((k) => k.name === 'Dashboard');
    expect(dashboards).toHaveLength(1);
    expect({ code: error.code, resourceId: error.resourceId }).toEqual({ code: 4090, resourceId: dashboards[0]!.id });
  });

  it("sends the caller's own Idempotency-Key, and none on a PATCH", async () => {
    const { workspace, token } = await ownerOf();
    const recorded = recordingFetch();
    const api = new C.WorkspaceClient({ apiKey: token, baseUrl: server.url, fetch: recorded.fetch });
    const created = await api.admin.createApiKey({ path: { workspace_id: workspace.workspaceId }, body: { name: 'Mine' }, idempotencyKey: 'create-mine-1' });
    await api.admin.updateApiKey({ path: { workspace_id: workspace.workspaceId, key_id: created.api_key.id }, body: { name: 'Renamed' } });
    expect(recorded.seen.map((r) => [r.method, r.headers.get('idempotency-key')])).toEqual([['POST', 'create-mine-1'], ['PATCH', null]]);
    expect(Object.keys(C.adminOperations)).toContain('rotateWebhookSecret');
    expect(Object.keys(C.adminOperations).every((id) => typeof (api.admin as Record<string, unknown>)[id] === 'function')).toBe(true);
  });
});
