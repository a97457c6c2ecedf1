import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { pageLine, siteLine, topicLine } from '../../support/content-records.js';
import { send } from '../../support/http.js';
import { promptLine, snapshotLine } from '../../support/import-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { profileLine } from '../../support/workspace-records.js';
import { expectStablePaging } from '../../contract/framework/paging.js';

// Today is 2026-11-22 (UTC): with range=7d the current period is 11-16..11-22.
const NOW = new Date('2026-11-22T12:00:00.000Z');

const server = useTestServer({ now: () => NOW });

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

function cited(
  url: string, domain: string, title: string | null, citations: number, prompts: number, platforms: string[], isOwn: boolean,
  pageId: string | null = null, topicId: string | null = null,
) {
  return { url, domain, title, citations, prompts, platforms, is_own: isOwn, content_map_page_id: pageId, topic_id: topicId };
}

const list = (ws: TestWorkspace, query: Record<string, string | number> = {}) => getWith(server, ws, '/api/v1/visibility/cited-pages', query);
const items = (res: { body: unknown }) => (res.body as { data: { items: Array<{ url: string }> } }).data.items;

describe('GET /api/v1/visibility/cited-pages', () => {
  it('when answers cite pages, answers each page once with its counts, platforms, ownership and content-map page, most cited first', async () => {
    const ws = await createTestWorkspace(server.store);
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
    const ws = await createTestWorkspace(server.store);
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
    const ws = await createTestWorkspace(server.store);
    await seed(ws);
    const rows = items(await list(ws, { range: '30d' })) as Array<{ url: string; citations: number; prompts: number }>;
    expect(rows.slice(0, 3).map((r) => [r.url, r.citations, r.prompts])).toEqual([[REVIEW, 3, 2], [PRICING, 2, 2], [OTHER, 2, 2]]);
  });

  it('when an answer is imported again with other citations, the counts follow', async () => {
    const ws = await createTestWorkspace(server.store);
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
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
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
    const ws = await createTestWorkspace(server.store);
    await seed(ws);
    const first = (await list(ws, { range: '7d', limit: 1 })).body as { data: { next_cursor: string } };
    const res = await list(ws, { range: '7d', platform: 'grok', cursor: first.data.next_cursor });
    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
  });

  it('when another workspace\'s answers cite pages, lists none of them', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    await seed(other);
    expect((await list(ws, { range: '90d' })).body).toEqual({ code: 2000, messages: 'OK', data: { items: [], next_cursor: null } });
  });

  it('when only another workspace has a content-map page at the cited address, links none', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    await seed(ws);
    const site = siteLine();
    await importRecords(server.store, other, [site, pageLine({ site_id: site.id, url: START })]);
    const rows = items(await list(ws, { range: '7d' })) as Array<{ url: string; content_map_page_id: string | null }>;
    expect(rows.find((r) => r.url === START)?.content_map_page_id).toBeNull();
  });

  it('ties each cited URL to the content-map page at its page address, whatever the spelling, with the page\'s topic', async () => {
    const ws = await createTestWorkspace(server.store);
    const topic = topicLine({ name: 'Pricing' });
    const site = siteLine();
    const pricing = pageLine({ site_id: site.id, topic_id: topic.id, url: 'https://acme.example/pricing' });
    const untopical = pageLine({ site_id: site.id, url: 'https://acme.example/about' });
    // A page of the content map on a domain the profile does not name: still the workspace's page.
    const partner = pageLine({ site_id: site.id, topic_id: topic.id, url: 'https://partner.example/acme' });
    const p = promptLine();
    const spellings = [
      'https://www.acme.example/pricing/?utm_source=chatgpt.com#plans', // www., slash, tracking, fragment
      'http://ACME.example/pricing', // scheme, host case
      'https://acme.example:443/pricing?gclid=abc&utm_medium=ai', // default port, click id
      'https://acme.example/Pricing', // path case: another page
      'https://acme.example/pricing?plan=pro', // a real parameter: another page
      'https://acme.example/about/',
      'https://partner.example/acme#top',
    ];
    await importRecords(server.store, ws, [
      profileLine({ domains: ['acme.example'] }), topic, site, pricing, untopical, partner, p,
      ...spellings.map((url, i) => snap(p.id, `2026-11-2${i % 3}T08:00:00.000Z`, 'chatgpt', [[url, `Title ${i}`]])),
    ]);

    const rows = items(await list(ws, { range: '7d', limit: 100 })) as Array<Record<string, unknown> & { url: string }>;
    const tie = (url: string) => rows.filter((r) => r.url === url).map((r) => [r.is_own, r.content_map_page_id, r.topic_id]);
    expect(spellings.map(tie)).toEqual([
      [[true, pricing.id, topic.id]],
      [[true, pricing.id, topic.id]],
      [[true, pricing.id, topic.id]],
      [[true, null, null]],
      [[true, null, null]],
      [[true, untopical.id, null]],
      [[false, partner.id, topic.id]],
    ]);
  });

  it('when several pages share an address, ties the one at the very URL, else the oldest', async () => {
    const ws = await createTestWorkspace(server.store);
    const site = siteLine();
    const older = pageLine({ site_id: site.id, url: 'https://www.acme.example/pricing/', created_at: '2026-01-01T00:00:00.000Z' });
    const newer = pageLine({ site_id: site.id, url: 'https://acme.example/pricing', created_at: '2026-02-01T00:00:00.000Z' });
    const p = promptLine();
    await importRecords(server.store, ws, [
      site, older, newer, p,
      snap(p.id, '2026-11-20T08:00:00.000Z', 'chatgpt', [['https://acme.example/pricing', 'Exact'], ['http://acme.example/pricing#x', 'Variant']]),
    ]);
    const rows = items(await list(ws, { range: '7d' })) as Array<{ url: string; content_map_page_id: string }>;
    expect(rows.map((r) => [r.url, r.content_map_page_id])).toEqual([
      ['http://acme.example/pricing#x', older.id],
      ['https://acme.example/pricing', newer.id],
    ]);
  });

  describe('with content_map_page', () => {
    async function seedSpellings(ws: TestWorkspace) {
      const topic = topicLine();
      const site = siteLine();
      const pricing = pageLine({ site_id: site.id, topic_id: topic.id, url: 'https://acme.example/pricing' });
      const uncited = pageLine({ site_id: site.id, url: 'https://acme.example/careers' });
      const [p1, p2] = [promptLine(), promptLine()];
      await importRecords(server.store, ws, [
        profileLine({ domains: ['acme.example'] }), topic, site, pricing, uncited, p1, p2,
        // current 7d period (11-16 … 11-22)
        snap(p1.id, '2026-11-22T08:00:00.000Z', 'chatgpt', [['https://acme.example/pricing?utm_source=chatgpt.com', 'Pricing'], [REVIEW, 'Best CRM']]),
        snap(p2.id, '2026-11-21T08:00:00.000Z', 'chatgpt', [['https://acme.example/pricing?utm_source=chatgpt.com', 'Pricing']]),
        snap(p1.id, '2026-11-20T08:00:00.000Z', 'perplexity', [['https://www.acme.example/pricing/', 'Pricing | Acme']]),
        snap(p2.id, '2026-11-19T08:00:00.000Z', 'gemini', [[PRICING, 'Pricing']]),
        snap(p2.id, '2026-11-18T08:00:00.000Z', 'gemini', [['https://acme.example/pricing?plan=pro', 'Pro plan']]),
        // previous period: outside a 7d range, inside 30d
        snap(p1.id, '2026-11-10T08:00:00.000Z', 'grok', [[PRICING, 'Pricing']]),
      ]);
      return { topic, pricing, uncited };
    }

    it('lists only the URLs at that page\'s address, each with its own counts over the range', async () => {
      const ws = await createTestWorkspace(server.store);
      const { topic, pricing } = await seedSpellings(ws);
      const res = await list(ws, { range: '7d', content_map_page: pricing.id });
      // 4 answers cite the page in the current period, under three spellings; ?plan=pro is another page.
      expect([res.status, res.body]).toEqual([200, {
        code: 2000,
        messages: 'OK',
        data: {
          items: [
            cited('https://acme.example/pricing?utm_source=chatgpt.com', 'acme.example', 'Pricing', 2, 2, ['chatgpt'], true, pricing.id, topic.id),
            cited(PRICING, 'acme.example', 'Pricing', 1, 1, ['gemini'], true, pricing.id, topic.id),
            cited('https://www.acme.example/pricing/', 'www.acme.example', 'Pricing | Acme', 1, 1, ['perplexity'], true, pricing.id, topic.id),
          ],
          next_cursor: null,
        },
      }]);
      const thirty = items(await list(ws, { range: '30d', content_map_page: pricing.id })) as Array<{ url: string; citations: number }>;
      // Ties by URL: the bare address sorts before its tracked spelling.
      expect(thirty.map((r) => [r.url, r.citations])).toEqual([
        [PRICING, 2], ['https://acme.example/pricing?utm_source=chatgpt.com', 2], ['https://www.acme.example/pricing/', 1],
      ]);
      const gemini = items(await list(ws, { range: '7d', content_map_page: pricing.id.toUpperCase(), platform: 'gemini' }));
      expect(gemini.map((r) => r.url)).toEqual([PRICING]);
    });

    it('when the page is never cited, unknown, or another workspace\'s, answers an empty list', async () => {
      const ws = await createTestWorkspace(server.store);
      const other = await createTestWorkspace(server.store);
      const { uncited } = await seedSpellings(ws);
      const { pricing: foreign } = await seedSpellings(other);
      const empty = { code: 2000, messages: 'OK', data: { items: [], next_cursor: null } };
      for (const page of [uncited.id, foreign.id, '00000000-0000-4000-8000-000000000000']) {
        expect((await list(ws, { range: '30d', content_map_page: page })).body).toEqual(empty);
      }
    });

    it('pages through the filtered list once; a cursor sent with another page or none is 422', async () => {
      const ws = await createTestWorkspace(server.store);
      const { pricing, uncited } = await seedSpellings(ws);
      const query = { range: '7d', content_map_page: pricing.id };
      await expectStablePaging({
        call: (spec) => send(server.url, spec, ws.key),
        request: { path: '/api/v1/visibility/cited-pages', query },
        ids: ['https://acme.example/pricing?utm_source=chatgpt.com', PRICING, 'https://www.acme.example/pricing/'],
        itemId: (item) => (item as { url: string }).url,
      });
      const first = (await list(ws, { ...query, limit: 1 })).body as { data: { next_cursor: string } };
      const changedFilters: Array<Record<string, string>> = [{ range: '7d', content_map_page: uncited.id }, { range: '7d' }];
      for (const changed of changedFilters) {
        const res = await list(ws, { ...changed, cursor: first.data.next_cursor });
        expect([res.status, (res.body as { code: number }).code, (res.body as { messages: string }).messages]).toEqual([422, 4220, expect.stringContaining('query.cursor')]);
      }
    });

    it('when the page id is not a UUID, answers 422 naming it', async () => {
      const ws = await createTestWorkspace(server.store);
      const res = await list(ws, { content_map_page: 'pricing' });
      expect([res.status, (res.body as { code: number }).code, (res.body as { messages: string }).messages]).toEqual([422, 4220, expect.stringContaining('query.content_map_page')]);
    });
  });

  it('when the platform is not a platform, answers 422 (4220)', async () => {
    const ws = await createTestWorkspace(server.store);
    const res = await list(ws, { platform: 'bing' });
    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
  });
});
