import { describe, expect, it } from 'vitest';
import { importLines } from '../../src/import/import-ndjson.js';
import type { ContentMapStore, PageInput, PageStatus, SitemapUrlInput, TopicInput, TopicStage } from '../../src/store/interfaces/content-map.js';
import { createPostgresContentMapStore } from '../../src/store/postgres/content-map.js';
import { changed, pageLine, siteLine, topicLine } from '../support/content-records.js';
import { postgresAvailable } from '../support/postgres.js';
import { expectSamePages, sameForEach, sameFromBoth, type ParityDatabases, type StorePair, useParityDatabases } from '../support/store-parity.js';

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T11:00:00.000Z';
const T2 = '2026-03-02T09:30:00.000Z';
const T3 = '2026-03-05T18:45:00.000Z';
const MAX_EXACT = Number.MAX_SAFE_INTEGER;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const UPDATED_AFTER = [null, T0, T1, T2, T3];

// Topics whose keywords tie on volume (then ordered by code point), whose volumes add up past 32
// bits, whose mean difficulty rounds half up, and one without keywords; creation times tie.
const topics = [
  topicLine({ created_at: T0, stage: 'READY', keywords: [{ keyword: 'alpha', msv: 10, kd: 1 }, { keyword: 'Zeta', msv: 10, kd: 2 }, { keyword: 'Älpha', msv: 10, kd: 2 }, { keyword: 'beta', msv: 20, kd: 1 }] }),
  topicLine({ created_at: T0, stage: 'PROCESSING', name: 'Ünïcödé 🚀', keywords: Array.from({ length: 5 }, (_, i) => ({ keyword: `k${i}`, msv: 1_000_000_000, kd: 99 + (i % 2) })) }),
  topicLine({ created_at: T1, stage: 'COMPLETED', keywords: [], msv_badge: 'LOW', kd_badge: 'HIGH', coverage: 0 }),
  topicLine({ created_at: T2, stage: 'READY', updated_at: T3, coverage: 100 }),
];
const sites = [
  siteLine({ created_at: T0, url_count: MAX_EXACT, processing: { total: MAX_EXACT, ready: MAX_EXACT - 7, failed: 7, completed: true } }),
  siteLine({ created_at: T0, kind: 'page', url: 'https://acme.example/ü/page?q=1', url_count: 1, processing: { total: 1, ready: 0, failed: 0, completed: false } }),
  siteLine({ created_at: T1, updated_at: T3, processing: { total: 0, ready: 0, failed: 0, completed: true } }),
];
const pages = [
  pageLine({ site_id: sites[0]!.id, topic_id: topics[0]!.id, created_at: T0 }),
  pageLine({ site_id: sites[0]!.id, topic_id: topics[0]!.id, created_at: T0, status: 'FAILED', title: null, last_fetched_at: null }),
  pageLine({ site_id: sites[0]!.id, created_at: T1, status: 'PROCESSING', url: 'https://WWW.Acme.Example/Ünïcödé/?utm_source=chatgpt.com&a=1' }),
  pageLine({ site_id: sites[1]!.id, topic_id: topics[1]!.id, created_at: T2, updated_at: T3, title: 'Tïtle with 😀 and "quotes" \\ backslash' }),
  pageLine({ site_id: sites[2]!.id, created_at: T3 }),
];
const renamed = changed(topics[0]!, { name: 'Renamed', updated_at: T2 });
const otherTopic = topicLine({ created_at: T0 });
const otherSite = siteLine({ created_at: T0 });
const otherPage = pageLine({ site_id: otherSite.id, topic_id: otherTopic.id, created_at: T0 });

describe.skipIf(!postgresAvailable())('PostgreSQL content-map store answers as the SQLite one', () => {
  let pair: StorePair<ContentMapStore>;
  let workspaceId: string;

  const view = (opened: ParityDatabases) => ({
    databases: opened,
    pair: { sqlite: opened.sqlite.contentMap, postgres: createPostgresContentMapStore(opened.pool) },
    workspaceId: opened.workspace.workspaceId,
  });
  const ownDatabases = useParityDatabases(async (sqlite, workspace, other) => {
    await importLines(sqlite, workspace.workspaceId, [...topics, ...sites, ...pages].map((l) => l.line));
    await importLines(sqlite, workspace.workspaceId, [renamed.line]);
    await importLines(sqlite, other.workspaceId, [otherTopic, otherSite, otherPage].map((l) => l.line));
  }, (opened) => {
    ({ pair, workspaceId } = view(opened));
  });

  it('reads each record by id, and nothing of another workspace or an unknown id', async () => {
    const read = await sameForEach(pair, 'topic', topics.map((l) => l.id), (s, id) => s.getTopic(workspaceId, id));
    expect(read.map((t) => [t?.totalMsv, t?.avgKd])).toEqual([[50, 2], [5_000_000_000, 99], [0, 0], [3280, 30]]);
    expect(read[0]?.keywords.map((k) => k.keyword)).toEqual(['beta', 'Zeta', 'alpha', 'Älpha']);
    const readSites = await sameForEach(pair, 'site', sites.map((l) => l.id), (s, id) => s.getSitemapUrl(workspaceId, id));
    expect(readSites.map((s) => [s?.urlCount, s?.processing.completed])).toEqual([[MAX_EXACT, true], [1, false], [128, true]]);
    expect(await sameForEach(pair, 'page', pages.map((l) => l.id), (s, id) => s.getPage(workspaceId, id))).not.toContain(undefined);
    const absent = [UNKNOWN, otherTopic.id, otherSite.id, otherPage.id];
    expect(await sameForEach(pair, 'absent', absent, async (s, id) => [
      await s.getTopic(workspaceId, id), await s.getSitemapUrl(workspaceId, id), await s.getPage(workspaceId, id),
    ])).toStrictEqual(absent.map(() => [undefined, undefined, undefined]));
  });

  it('lists topics with each stage, in both orders, from every updated_after bound, page by page', async () => {
    for (const stage of [undefined, 'PROCESSING', 'READY', 'COMPLETED'] satisfies Array<TopicStage | undefined>) {
      await expectSamePages(pair, `topics ${stage}`, (s, page) => s.listTopics({ workspaceId, stage }, page), 'camelCase', UPDATED_AFTER);
    }
    const all = await expectSamePages(pair, 'topics', (s, page) => s.listTopics({ workspaceId }, page), 'camelCase');
    expect(all.map((t) => t.id)).toEqual([...[topics[0]!.id, topics[1]!.id].sort(), topics[2]!.id, topics[3]!.id]);
  });

  it('lists sites with each type, in both orders, from every updated_after bound, page by page', async () => {
    for (const type of [undefined, 'sitemap', 'page'] as const) {
      await expectSamePages(pair, `sites ${type}`, (s, page) => s.listSitemapUrls({ workspaceId, type }, page), 'camelCase', UPDATED_AFTER);
    }
    expect(await expectSamePages(pair, 'sites', (s, page) => s.listSitemapUrls({ workspaceId }, page), 'camelCase')).toHaveLength(sites.length);
  });

  it('lists pages with each filter, in both orders, from every updated_after bound, page by page', async () => {
    const filters = [
      ...[sites[0]!.id, sites[1]!.id, otherSite.id].map((siteId) => ({ siteId })),
      ...[topics[0]!.id, topics[1]!.id, topics[2]!.id].map((topicId) => ({ topicId })),
      ...(['PROCESSING', 'READY', 'FAILED'] satisfies PageStatus[]).map((status) => ({ status })),
      { siteId: sites[0]!.id, topicId: topics[0]!.id, status: 'FAILED' as const },
    ];
    for (const filter of filters) {
      await expectSamePages(pair, `pages ${JSON.stringify(filter)}`, (s, page) => s.listPages({ workspaceId, ...filter }, page), 'snake_case');
    }
    const all = await expectSamePages(pair, 'pages', (s, page) => s.listPages({ workspaceId }, page), 'snake_case', UPDATED_AFTER);
    expect(all).toHaveLength(pages.length);
  });

  it('reads the stored states the import compares with', async () => {
    expect(await sameForEach(pair, 'stage', [...topics.map((l) => l.id), UNKNOWN], (s, id) => s.topicStage(id)))
      .toEqual(['READY', 'PROCESSING', 'COMPLETED', 'READY', undefined]);
    expect(await sameForEach(pair, 'state', [...sites.map((l) => l.id), UNKNOWN], (s, id) => s.sitemapUrlState(id)))
      .toEqual(['completed, 7 failed', 'running', 'completed, 0 failed', undefined]);
  });

  it('saves through its own methods as SQLite does: inserted, unchanged, updated with the state before, then read the same', async () => {
    const { databases, pair, workspaceId } = view(await ownDatabases());
    const topic: TopicInput = {
      id: 'B-topic', workspace_id: workspaceId, name: 'Saved', stage: 'PROCESSING', msv_badge: 'LOW', kd_badge: 'LOW', coverage: 5,
      keywords: [{ keyword: 'b', msv: 1, kd: 3 }, { keyword: 'a', msv: 1, kd: 4 }, { keyword: 'c', msv: MAX_EXACT - 2, kd: 0 }],
      created_at: '2026-04-01T00:00:00.000Z', updated_at: '2026-04-01T00:00:00.000Z',
    };
    expect(await sameFromBoth(pair, 'topic', (s) => s.saveTopic(topic))).toEqual({ outcome: 'inserted', previous: undefined });
    expect(await sameFromBoth(pair, 'topic again', (s) => s.saveTopic({ ...topic, keywords: [...topic.keywords].reverse() })))
      .toEqual({ outcome: 'unchanged', previous: 'PROCESSING' });
    expect(await sameFromBoth(pair, 'topic ready', (s) => s.saveTopic({ ...topic, stage: 'READY' }))).toEqual({ outcome: 'updated', previous: 'PROCESSING' });
    expect(await sameFromBoth(pair, 'topic read', (s) => s.getTopic(workspaceId, 'B-topic'))).toMatchObject({ totalMsv: MAX_EXACT, avgKd: 2 });
    await sameFromBoth(pair, 'a-topic', (s) => s.saveTopic({ ...topic, id: 'a-topic' }));

    const site: SitemapUrlInput = {
      id: 'site-saved', workspace_id: workspaceId, url: 'https://saved.example/sitemap.xml', type: 'sitemap', url_count: 2,
      last_fetched_at: T3, processing: { total: 2, ready: 1, failed: 0, completed: false }, created_at: T3, updated_at: T3,
    };
    expect(await sameFromBoth(pair, 'site', (s) => s.saveSitemapUrl(site))).toEqual({ outcome: 'inserted', previous: undefined });
    expect(await sameFromBoth(pair, 'site done', (s) => s.saveSitemapUrl({ ...site, processing: { total: 2, ready: 1, failed: 1, completed: true } })))
      .toEqual({ outcome: 'updated', previous: 'running' });
    expect(await sameFromBoth(pair, 'site state', (s) => s.sitemapUrlState('site-saved'))).toBe('completed, 1 failed');

    const page: PageInput = {
      id: 'page-saved', workspace_id: workspaceId, url: 'HTTPS://WWW.Saved.Example/A/?utm_medium=x#frag', title: null, site_id: 'site-saved',
      topic_id: 'B-topic', status: 'READY', last_fetched_at: null, created_at: T3, updated_at: T3,
    };
    expect(await sameFromBoth(pair, 'page', (s) => s.savePage(page))).toEqual({ outcome: 'inserted', previous: undefined });
    expect(await sameFromBoth(pair, 'page again', (s) => s.savePage(page))).toEqual({ outcome: 'unchanged', previous: 'READY' });
    expect(await sameFromBoth(pair, 'page failed', (s) => s.savePage({ ...page, status: 'FAILED' }))).toEqual({ outcome: 'updated', previous: 'READY' });
    const address = async (pool: typeof databases.pool) => (await pool.query('SELECT address FROM pages WHERE id = $1', ['page-saved'])).rows[0];
    expect([await address(databases.pool), databases.sqlite.db.prepare('SELECT address FROM pages WHERE id = ?').get('page-saved')])
      .toEqual([{ address: 'saved.example/A' }, { address: 'saved.example/A' }]);

    const saved = await expectSamePages(pair, 'saved topics', (s, page) => s.listTopics({ workspaceId }, page), 'camelCase', [null, T3]);
    expect(saved.slice(-2).map((t) => t.id)).toEqual(['B-topic', 'a-topic']);
    await expectSamePages(pair, 'saved pages', (s, p) => s.listPages({ workspaceId, topicId: 'B-topic' }, p), 'snake_case', [null, T3]);
  });
});
