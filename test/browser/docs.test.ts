import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser.js';
import { useTestServer } from '../support/test-server.js';

type Json = Record<string, any>;
const readGenerated = (name: string): Json | undefined => {
  const url = new URL(`../../generated/${name}`, import.meta.url);
  return existsSync(url) ? (JSON.parse(readFileSync(url, 'utf8')) as Json) : undefined;
};

/** Every operation the published OpenAPI document declares, read API and administration API alike. */
function contractOperations(doc: Json): Array<{ operationId: string; summary: string; path: string }> {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.values(item as Json)
      .filter((op): op is Json => typeof op === 'object' && op !== null && typeof op.operationId === 'string')
      .map((op) => ({ operationId: op.operationId as string, summary: op.summary as string, path })));
}

/** Every event type the published AsyncAPI document declares. */
function contractEvents(doc: Json | undefined): string[] {
  return Object.values((doc?.components?.messages ?? {}) as Json).map((m) => (m as Json).name as string);
}

describe('GET /docs in headless Chromium', () => {
  const openapi = readGenerated('openapi.json')!;
  const asyncapi = readGenerated('asyncapi.json');
  const server = useTestServer();
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${server.url}/docs`);
    await page.waitForSelector('body[data-rendered="true"], #reference[data-render-error]', { timeout: 60_000 });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('renders the reference without errors or Content-Security-Policy violations', async () => {
    expect(await page.getAttribute('#reference', 'data-render-error')).toBeNull();
    expect(await page.title()).toBe('Workspace Read API reference');
    expect(problems).toEqual([]);
  });

  it('shows every operation of the read API and the administration API, with its summary', async () => {
    const operations = contractOperations(openapi);
    expect(operations.some((o) => o.path.startsWith('/api/v1/'))).toBe(true);
    const shown = await page.$$eval('[id^="operation/"]', (els) =>
      Object.fromEntries(els.map((e) => [e.id.slice('operation/'.length), (e as unknown as { innerText: string }).innerText])));
    const missing = operations.filter((o) => !(shown[o.operationId] ?? '').includes(o.summary));
    expect(missing.map((o) => `${o.operationId} (${o.path})`)).toEqual([]);
  });

  it('shows, on every operation, the scope or role its security requires', async () => {
    const required = Object.values(openapi.paths as Json).flatMap((item) => Object.values(item as Json))
      .filter((op): op is Json => typeof op?.operationId === 'string')
      .map((op) => ({ operationId: op.operationId as string, values: (op.security as Json[]).flatMap((r) => Object.values(r).flat()) as string[] }));
    const shown = await page.$$eval('[id^="operation/"]', (els) =>
      Object.fromEntries(els.map((e) => [e.id.slice('operation/'.length), (e as unknown as { innerText: string }).innerText])));
    const missing = required.filter(({ operationId, values }) =>
      !(shown[operationId] ?? '').includes('Requires') || values.some((v) => !(shown[operationId] ?? '').includes(v)));
    expect(missing.map((o) => o.operationId)).toEqual([]);
  });

  it('shows every webhook event with its payload example', async () => {
    const events = contractEvents(asyncapi);
    const webhooksGroup = await page.$$eval('[id^="operation/webhook_"]', (els) => els.map((e) => (e as unknown as { innerText: string }).innerText));
    const missing = events.filter((event) => !webhooksGroup.some((text) => text.startsWith(event) && text.includes(`"event": "${event}"`)));
    expect(missing).toEqual([]);
    expect(webhooksGroup).toHaveLength(events.length);
  });

  it('makes no request outside the service', () => {
    const origin = new URL(server.url).origin;
    expect(requests.length).toBeGreaterThan(0);
    const outside = requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin);
    expect(outside).toEqual([]);
  });

  // Last: it leaves the reference for a guide, through the page's own link.
  it('links a guide that renders, styled, without errors or requests outside the service', async () => {
    await Promise.all([page.waitForURL('**/docs/guides/client-teams'), page.click('nav.docs-nav a[href="/docs/guides/client-teams"]')]);
    expect(await page.title()).toBe('Client teams: calling the read API · Workspace Read API');
    expect(await page.evaluate("getComputedStyle(document.querySelector('main.guide')).maxWidth")).not.toBe('none');
    expect(await page.$$eval('main.guide a[href="/docs"]', (els) => els.length)).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    const origin = new URL(server.url).origin;
    expect(requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin)).toEqual([]);
  });
});
