import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestWorkspace } from '../../support/accounts.js';
import { pageLine, siteLine, topicLine } from '../../support/content-records.js';
import { importRecords } from '../../support/visibility.js';
import type { OperationScenario, ScenarioContext } from './types.js';
import { invalidNaming, lastPage, notFoundOf, success } from './read-expectations.js';

const TOPICS = '/api/v1/content-map/topics';
const SITES = '/api/v1/content-map/sites';
const PAGES = '/api/v1/content-map/pages';

/** One topic, one site and one page of both, in `workspace`; with the API view of each. */
async function seedContentMap(ctx: ScenarioContext, workspace: TestWorkspace) {
  const topic = topicLine({ name: 'AI search visibility', created_at: '2026-03-01T10:00:00.000Z' });
  const site = siteLine({ created_at: '2026-03-01T10:00:00.000Z' });
  const page = pageLine({ site_id: site.id, topic_id: topic.id });
  await importRecords(ctx.store, workspace, [topic, site, page]);
  return {
    topic: {
      id: topic.id,
      name: 'AI search visibility',
      stage: 'READY',
      keywords: [{ keyword: 'ai search visibility', msv: 2400, kd: 38 }, { keyword: 'chatgpt brand mentions', msv: 880, kd: 22 }],
      totalMsv: 3280,
      msvBadge: 'MEDIUM',
      avgKd: 30,
      kdBadge: 'LOW',
      coverage: 45,
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
    },
    site: {
      id: site.id,
      url: 'https://www.acme.example/sitemap.xml',
      type: 'sitemap',
      urlCount: 128,
      lastFetchedAt: '2026-03-02T08:00:00.000Z',
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
      processing: { total: 128, ready: 120, failed: 3, completed: false },
    },
    page: {
      id: page.id,
      url: 'https://www.acme.example/blog/ai-visibility-guide',
      title: 'The complete guide to AI search visibility',
      site_id: site.id,
      topic_id: topic.id,
      status: 'READY',
      last_fetched_at: '2026-03-02T08:05:00.000Z',
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-01T10:00:00.000Z',
    },
  };
}

const seeded = new WeakMap<ScenarioContext, Awaited<ReturnType<typeof seedContentMap>>>();
async function contentMapOf(ctx: ScenarioContext) {
  let s = seeded.get(ctx);
  if (!s) seeded.set(ctx, (s = await seedContentMap(ctx, ctx.workspace)));
  return s;
}


export const contentMapScenarios: OperationScenario[] = [
  {
    operationId: 'listTopics',
    statuses: {
      200: async (ctx) => {
        await contentMapOf(ctx);
        return { path: TOPICS, query: { stage: 'READY' } };
      },
      422: {
        'stage is not a topic stage': () => ({ path: TOPICS, query: { stage: 'DONE' } }),
        'limit is 0': () => ({ path: TOPICS, query: { limit: 0 } }),
        'the cursor was altered': () => ({ path: TOPICS, query: { cursor: 'WyIyMDI2LTAxLTAxIiwiYSJd.AAAAAAAAAAAAAAAA' } }),
      },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(lastPage([(await contentMapOf(ctx)).topic])),
      422: invalidNaming(/query\.(stage|limit|cursor)/),
    },
    list: {
      seed: async (ctx, workspace, n) => {
        const topics = Array.from({ length: n }, (_, i) => topicLine({ created_at: `2026-03-0${1 + (i % 2)}T10:00:00.000Z` }));
        await importRecords(ctx.store, workspace, topics);
        return topics.map((t) => t.id);
      },
    },
  },
  {
    operationId: 'getTopic',
    statuses: {
      200: async (ctx) => ({ path: `${TOPICS}/${(await contentMapOf(ctx)).topic.id}` }),
      404: () => ({ path: `${TOPICS}/${randomUUID()}` }),
      422: { 'the topic id is not a UUID': () => ({ path: `${TOPICS}/not-a-uuid` }) },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(success((await contentMapOf(ctx)).topic)),
      404: notFoundOf('Topic'),
      422: invalidNaming(/topic/),
    },
    crossTenant: async (ctx) => ({ path: `${TOPICS}/${(await seedContentMap(ctx, ctx.other)).topic.id}` }),
  },
  {
    operationId: 'listSites',
    statuses: {
      200: async (ctx) => {
        await contentMapOf(ctx);
        return { path: SITES, query: { type: 'sitemap' } };
      },
      422: {
        'type is neither sitemap nor page': () => ({ path: SITES, query: { type: 'feed' } }),
        'limit is 101': () => ({ path: SITES, query: { limit: 101 } }),
      },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(lastPage([(await contentMapOf(ctx)).site])),
      422: invalidNaming(/query\.(type|limit)/),
    },
    list: {
      seed: async (ctx, workspace, n) => {
        const sites = Array.from({ length: n }, () => siteLine());
        await importRecords(ctx.store, workspace, sites);
        return sites.map((s) => s.id);
      },
    },
  },
  {
    operationId: 'getSite',
    statuses: {
      200: async (ctx) => ({ path: `${SITES}/${(await contentMapOf(ctx)).site.id}` }),
      404: () => ({ path: `${SITES}/${randomUUID()}` }),
      422: { 'the site id is not a UUID': () => ({ path: `${SITES}/www.acme.example` }) },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(success((await contentMapOf(ctx)).site)),
      404: notFoundOf('Site'),
      422: invalidNaming(/site/),
    },
    crossTenant: async (ctx) => ({ path: `${SITES}/${(await seedContentMap(ctx, ctx.other)).site.id}` }),
  },
  {
    operationId: 'listPages',
    statuses: {
      200: async (ctx) => {
        const { site, topic } = await contentMapOf(ctx);
        return { path: PAGES, query: { site: site.id, topic: topic.id, status: 'READY' } };
      },
      422: {
        'site is not a UUID': () => ({ path: PAGES, query: { site: 'blog' } }),
        'topic is not a UUID': () => ({ path: PAGES, query: { topic: 'pricing' } }),
        'status is not a page status': () => ({ path: PAGES, query: { status: 'DONE' } }),
      },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(lastPage([(await contentMapOf(ctx)).page])),
      422: invalidNaming(/query\.(site|topic|status)/),
    },
    list: {
      seed: async (ctx, workspace, n) => {
        const site = siteLine();
        const pages = Array.from({ length: n }, (_, i) => pageLine({ site_id: site.id, url: `https://www.acme.example/p/${i}` }));
        await importRecords(ctx.store, workspace, [site, ...pages]);
        return pages.map((p) => p.id);
      },
    },
  },
  {
    operationId: 'getPage',
    statuses: {
      200: async (ctx) => ({ path: `${PAGES}/${(await contentMapOf(ctx)).page.id}` }),
      404: () => ({ path: `${PAGES}/${randomUUID()}` }),
      422: { 'the page id is not a UUID': () => ({ path: `${PAGES}/42` }) },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(success((await contentMapOf(ctx)).page)),
      404: notFoundOf('Page'),
      422: invalidNaming(/page/),
    },
    crossTenant: async (ctx) => ({ path: `${PAGES}/${(await seedContentMap(ctx, ctx.other)).page.id}` }),
  },
];
