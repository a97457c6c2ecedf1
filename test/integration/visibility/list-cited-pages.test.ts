import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { pageLine, siteLine } from '../../support/content-records.js';
import { send } from '../../support/http.js';
import { promptLine, snapshotLine } from '../../support/import-records.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { profileLine } from '../../support/workspace-records.js';
import { expectStablePaging } from '../../contract/framework/paging.js';

// Today is 2026-11-22 (UTC): with range=7d the current period is 11-16..11-22.
const NOW = new Date('2026-11-22T12:00:00.000Z');

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ now: () => NOW });
});
afterAll(async () => {
  await server.close();
});

const PRICING = 'https://acme.example/pricing';
const GUIDE = 'https://acme.example/blog/guide';
const START = 'https://docs.acme.example/start';
const REVIEW = 'https://reviews.example.org/best-crm';
const NO_TITLE = 'https://notitle.example/';
const OTHER = 'https://other.example/x';

function snap(promptId: string, at: string, platform: string, citations: Array<[string, string]>) {
  return snapshotLine({ prompt_id: promptId, collected_at: at, platform, citations: citations.map(([url, title]) => ({ url, title })) });
}

interface Seeded {
  p1: string;
  p2: string;
  pricingPage: string;
  guidePage: string;
  first: ReturnType<typeof snap>;
}

async function seed(ws: TestWorkspace): Promise<Seeded> {
  const site = siteLine();
  // Stored with www. and a trailing slash: still the page answers cite as https://acme.example/pricing.
  const pricingPage = pageLine({ site_id: site.id, url: 'https://www.acme.example/pricing/' });
  const guidePage = pageLine({ site_id: site.id, url: GUIDE });
  const p1 = promptLine();
  const p2 = promptLine();
  const first = snap(p1.id, '2026-11-22T08:00:00.000Z', 'chatgpt', [[PRICING, 'Acme pricing'], [REVIEW, 'Best CRM'], [PRICING, 'Acme pricing']]);
  await importRecords(server.store, ws, [
    profileLine({ domains: ['acme.example'] }),
    site, pricingPage, guidePage, p1, p2,
    first,
    snap(p2.id, '2026-11-21T08:00:00.000Z', 'perplexity', [[PRICING, 'Pricing - Acme'], [START, 'Start here']]),
    snap(p1.id, '2026-11-20T08:00:00.000Z', 'perplexity', [[REVIEW, ''], [GUIDE, 'Guide']]),
    snap(p2.id, '2026-11-19T08:00:00.000Z', 'grok', [[NO_TITLE, '']]),
    snap(p1.id, '2026-11-16T00:00:00.000Z', 'gemini', [[OTHER, 'X']]),
    snap(p2.id, '2026-11-10T08:00:00.000Z', 'chatgpt', [[REVIEW, 'Old title'], [OTHER, 'X']]), // previous period
  ]);
  return { p1: p1.id, p2: p2.id, pricingPage: pricingPage.id, guidePage: guidePage.id, first };
}

function cited(url: string, domain: string, title: string | null, citations: number, prompts: number, platforms: string[], isOwn: boolean, pageId: string | null = null) {
  return { url, domain, title, citations, prompts, platforms, is_own: isOwn, content_map_page_id: pageId };
}

const list = (ws: TestWorkspace, query: Record<string, string | number> = {}) => getWith(server, ws, '/api/v1/visibility/cited-pages', query);
const items = (res: { body: unknown }) => (res.body as { data: { items: Array<{ url: string }> } }).data.items;

describe('GET /api/v1/visibility/cited-pages', () => {
  it('when answers cite pages, answers each page once with its counts, platforms, ownership and content-map page, most cited first', async () => {
    const ws = createTestWorkspace(server.store);
    const s = await seed(ws);
    const res = await list(ws, { range: '7d' });
    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        items: [
          cited(PRICING, 'acme.example', 'Acme pricing', 2, 2, ['chatgpt', 'perplexity'], true, s.pricingPage),
          cited(REVIEW, 'reviews.example.org', 'Best CRM', 2, 1, ['chatgpt', 'perplexity'], false),
          cited(GUIDE, 'acme.example', 'Guide', 1, 1, ['perplexity'], true, s.guidePage),
          cited(START, 'docs.acme.example', 'Start here', 1, 1, ['perplexity'], true),
          cited(NO_TITLE, 'notitle.example', null, 1, 1, ['grok'], false),
          cited(OTHER, 'other.example', 'X', 1, 1, ['gemini'], false),
        ],
        next_cursor: null,
      },
    }]);
  });

  it('when a platform is given, counts only that platform\'s answers', async () => {
    const ws = createTestWorkspace(server.store);
    const s = await seed(ws);
    const res = await list(ws, { range: '7d', platform: 'perplexity' });
    expect((res.body as { data: unknown }).data).toEqual({
      items: [
        cited(GUIDE, 'acme.example', 'Guide', 1, 1, ['perplexity'], true, s.guidePage),
        cited(PRICING, 'acme.example', 'Acme pricing', 1, 1, ['perplexity'], true, s.pricingPage),
        cited(START, 'docs.acme.example', 'Start here', 1, 1, ['perplexity'], true),
        cited(REVIEW, 'reviews.example.org', 'Best CRM', 1, 1, ['perplexity'], false),
      ],
      next_cursor: null,
    });
  });

  it('when the range is longer, takes in earlier answers too', async () => {
    const ws = createTestWorkspace(server.store);
    await seed(ws);
    const rows = items(await list(ws, { range: '30d' })) as Array<{ url: string; citations: number; prompts: number }>;
    expect(rows.slice(0, 3).map((r) => [r.url, r.citations, r.prompts])).toEqual([[REVIEW, 3, 2], [PRICING, 2, 2], [OTHER, 2, 2]]);
  });

  it('when an answer is imported again with other citations, the counts follow', async () => {
    const ws = createTestWorkspace(server.store);
    const s = await seed(ws);
    const record = JSON.parse(s.first.line) as Record<string, unknown>;
    await importRecords(server.store, ws, [{ line: JSON.stringify({ ...record, citations: [{ url: OTHER, title: 'X' }] }) }]);
    const rows = items(await list(ws, { range: '7d' })) as Array<{ url: string; citations: number; platforms: string[] }>;
    expect(rows.map((r) => [r.url, r.citations, r.platforms])).toEqual([
      [OTHER, 2, ['chatgpt', 'gemini']],
      [GUIDE, 1, ['perplexity']],
      [PRICING, 1, ['perplexity']],
      [START, 1, ['perplexity']],
      [NO_TITLE, 1, ['grok']],
      [REVIEW, 1, ['perplexity']],
    ]);
  });

  it('when walked with limit 1, 2 and 3, returns every page once in the same order; altered and foreign cursors are 422', async () => {
    const ws = createTestWorkspace(server.store);
    const other = createTestWorkspace(server.store);
    await seed(ws);
    await seed(other);
    await expectStablePaging({
      call: (spec) => send(server.url, spec, ws.key),
      request: { path: '/api/v1/visibility/cited-pages', query: { range: '7d' } },
      ids: [PRICING, REVIEW, GUIDE, START, NO_TITLE, OTHER],
      itemId: (item) => (item as { url: string }).url,
      foreign: { path: '/api/v1/visibility/cited-pages', query: { range: '7d' }, key: other.key },
    });
  });

  it('when the platform changes between pages, refuses the cursor with 422', async () => {
    const ws = createTestWorkspace(server.store);
    await seed(ws);
    const first = (await list(ws, { range: '7d', limit: 1 })).body as { data: { next_cursor: string } };
    const res = await list(ws, { range: '7d', platform: 'grok', cursor: first.data.next_cursor });
    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
  });

  it('when another workspace\'s answers cite pages, lists none of them', async () => {
    const ws = createTestWorkspace(server.store);
    const other = createTestWorkspace(server.store);
    await seed(other);
    expect((await list(ws, { range: '90d' })).body).toEqual({ code: 2000, messages: 'OK', data: { items: [], next_cursor: null } });
  });

  it('when only another workspace has a content-map page at the cited address, links none', async () => {
    const ws = createTestWorkspace(server.store);
    const other = createTestWorkspace(server.store);
    await seed(ws);
    const site = siteLine();
    await importRecords(server.store, other, [site, pageLine({ site_id: site.id, url: START })]);
    const rows = items(await list(ws, { range: '7d' })) as Array<{ url: string; content_map_page_id: string | null }>;
    expect(rows.find((r) => r.url === START)?.content_map_page_id).toBeNull();
  });

  it('when the platform is not a platform, answers 422 (4220)', async () => {
    const ws = createTestWorkspace(server.store);
    const res = await list(ws, { platform: 'bing' });
    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
  });
});
