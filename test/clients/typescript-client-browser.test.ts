import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../support/accounts.js';
import { launchChromium } from '../support/browser.js';
import { promptLine } from '../support/import-records.js';
import { clientProject, type ClientProject } from '../support/packed-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { importRecords } from '../support/visibility.js';

// The packed client's main entry bundled by esbuild for browsers, loaded by a page of another
// origin (a second loopback server) in Debian's Chromium, reading the service through CORS.

let project: ClientProject;
let pages: http.Server;
let pageOrigin: string;
let server: TestServer;
let workspace: TestWorkspace;
let browser: Browser;
let bundle: string;

beforeAll(async () => {
  // First: without Chromium the file fails at once, naming the package to install.
  browser = await launchChromium();
  project = await clientProject();
  const entry = path.join(project.dir, 'dashboard.js');
  writeFileSync(entry, "import * as client from '@workspace-read-api/client';\nglobalThis.workspaceClient = client;\n");
  const built = await build({ entryPoints: [entry], absWorkingDir: project.dir, bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' });
  bundle = built.outputFiles[0]!.text;
  pages = http.createServer((req, res) => {
    if (req.url === '/dashboard.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Dashboard</title><script type="module" src="/dashboard.js"></script>');
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  server = await startTestServer({ http: { corsAllowedOrigins: [pageOrigin] } });
  workspace = await createTestWorkspace(server.store);
  await importRecords(server.store, workspace, Array.from({ length: 7 }, (_, i) => promptLine({ text: `Prompt ${i}` })));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  pages?.closeAllConnections();
  await new Promise((resolve) => pages?.close(resolve));
  project?.cleanup();
});

describe('the client in a browser', () => {
  it('bundles without anything of Node, and a page of an allowed origin reads, pages, revalidates and gets typed errors through CORS', async () => {
    expect(bundle).not.toMatch(/node:/);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(pageOrigin);
    await page.waitForFunction(() => 'workspaceClient' in globalThis);
    const seen = await page.evaluate(async ({ baseUrl, apiKey }) => {
      type Module = typeof import('../../clients/typescript/src/index.js');
      const { WorkspaceClient, NotFoundError } = (globalThis as unknown as { workspaceClient: Module }).workspaceClient;
      const api = new WorkspaceClient({ apiKey, baseUrl });
      const me = await api.get('/api/v1/me');
      const texts: string[] = [];
      for await (const prompt of api.list('/api/v1/visibility/prompts', { query: { limit: 3 } })) texts.push(prompt.text);
      const first = await api.getWithMeta('/api/v1/visibility/setup');
      const again = await api.getWithMeta('/api/v1/visibility/setup', { ifNoneMatch: first.meta.etag! });
      const missing = await api.get('/api/v1/visibility/prompts/{prompt}', { path: { prompt: '00000000-0000-4000-8000-000000000000' } }).catch((e: unknown) => e);
      return {
        workspace: me.workspace.id,
        texts: texts.sort(),
        meta: { etag: first.meta.etag, requestId: first.meta.requestId, rateLimit: first.meta.rateLimit },
        notModified: again.notModified,
        missing: missing instanceof NotFoundError ? `${missing.name} ${missing.status} ${missing.code}` : String(missing),
        origin: (globalThis as unknown as { location: { origin: string } }).location.origin,
      };
    }, { baseUrl: server.url, apiKey: workspace.key });
    expect(seen).toEqual({
      workspace: workspace.workspaceId,
      texts: Array.from({ length: 7 }, (_, i) => `Prompt ${i}`),
      meta: { etag: expect.stringMatching(/^W\/"/), requestId: expect.any(String), rateLimit: { remaining: expect.any(Number), resetSeconds: expect.any(Number), limit: 120, windowSeconds: 60 } },
      notModified: true,
      missing: 'NotFoundError 404 4040',
      origin: pageOrigin,
    });
    expect(seen.origin).not.toBe(server.url);
    expect(problems).toEqual([]);
  });
});
