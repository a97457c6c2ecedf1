import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORMS } from '../../src/store/interfaces/visibility-rows.js';
import type { CitedPagePosition, CitedPageRow, CitedPageStore } from '../../src/store/interfaces/visibility-cited-pages.js';
import { createPostgresCitedPageStore } from '../../src/store/postgres/visibility-cited-pages.js';
import { everyPage } from '../support/keyset-pages.js';
import { postgresAvailable } from '../support/postgres.js';
import { CITED_URLS, openParityData, TODAY, type ParityData } from '../support/visibility-parity.js';

const UNKNOWN_ID = '00000000-0000-4000-a000-000000000000';

type ListFilter = Parameters<CitedPageStore['list']>[0];

function allPages(store: CitedPageStore, filter: ListFilter, limit: number): Promise<CitedPageRow[][]> {
  return everyPage<CitedPageRow, CitedPagePosition>((pageLimit, position) => store.list(filter, pageLimit, position), (last) => [last.citations, last.url], limit);
}

/**
 * The rows with their platforms as a sorted list: SQLite's group_concat(DISTINCT) promises no
 * order of the platforms (the interface says so; readers make a set of them), PostgreSQL's come
 * sorted.
 */
function platformsSorted(pages: CitedPageRow[][]): CitedPageRow[][] {
  return pages.map((page) => page.map((r) => ({ ...r, platforms: r.platforms.split(',').sort().join(',') })));
}

describe.skipIf(!postgresAvailable())('PostgreSQL cited page store reads what the SQLite one reads', () => {
  let data: ParityData;
  let sqlite: CitedPageStore;
  let postgres: CitedPageStore;

  beforeAll(async () => {
    data = await openParityData();
    sqlite = data.sqlite.citedPages;
    postgres = createPostgresCitedPageStore(data.pool);
  });
  afterAll(async () => {
    await data?.close();
  });

  it('list: the same pages at every page size, for every range, platform and page address', async () => {
    const ranges: Array<[number, number]> = [[TODAY - 6, TODAY], [TODAY - 29, TODAY], [TODAY - 179, TODAY], [TODAY - 400, TODAY + 400], [TODAY + 10, TODAY + 20], [TODAY, TODAY - 6]];
    const addresses = [undefined, 'acme.example/pricing', 'acme.example/Blog/Guide', 'reviews.example.org/BEST-crm', 'nowhere.example'];
    let compared = 0;
    let platformLists = 0;
    for (const workspaceId of [data.main.workspaceId, data.other.workspaceId, data.empty.workspaceId, data.big.workspaceId]) {
      for (const [fromDay, toDay] of ranges) {
        const narrowed = [
          ...addresses.map((address) => ({ platform: undefined, address })),
          ...PLATFORMS.map((platform, i) => ({ platform, address: addresses[i % 3] })),
        ];
        for (const { platform, address } of narrowed) {
          const filter = { workspaceId, fromDay, toDay, platform, address };
          for (const limit of [1, 4, 100]) {
            const expected = await allPages(sqlite, filter, limit);
            const got = await allPages(postgres, filter, limit);
            expect(platformsSorted(got), JSON.stringify({ filter, limit })).toStrictEqual(platformsSorted(expected));
            for (const r of got.flat()) expect(r.platforms).toBe(r.platforms.split(',').sort().join(','));
            compared += expected.flat().length;
            platformLists += expected.flat().filter((r) => r.platforms.includes(',')).length;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
    expect(platformLists).toBeGreaterThan(100);
    const [big] = await sqlite.list({ workspaceId: data.big.workspaceId, fromDay: TODAY - 30, toDay: TODAY }, 1);
    expect(big!.citations).toBeGreaterThan(2 ** 46);
  });

  it('list: ties on citations are ordered by URL in code-point order, a position splits them', async () => {
    const filter = { workspaceId: data.main.workspaceId, fromDay: TODAY - 400, toDay: TODAY + 400 };
    const all = (await sqlite.list(filter, 100)).map((r) => r.url);
    expect(all).toHaveLength(CITED_URLS.length);
    for (const url of [...all, '', 'https://', 'zzz']) {
      for (const citations of [0, 1, 50, 10_000]) {
        const position = [citations, url] as const;
        expect(platformsSorted([await postgres.list(filter, 3, position)]), JSON.stringify(position)).toStrictEqual(
          platformsSorted([await sqlite.list(filter, 3, position)]),
        );
      }
    }
  });

  it('contentMapPage: the page at the URL\'s address, the exact URL first, then the oldest, then the lowest id', async () => {
    const urls = [...CITED_URLS, 'https://acme.example/pricing?plan=pro', 'https://ACME.example/pricing/?gclid=1', 'https://elsewhere.example/never-cited', 'ftp://acme.example/pricing', 'not a url'];
    let found = 0;
    for (const workspaceId of [data.main.workspaceId, data.other.workspaceId, data.empty.workspaceId, UNKNOWN_ID]) {
      for (const url of urls) {
        const expected = await sqlite.contentMapPage(workspaceId, url);
        expect(await postgres.contentMapPage(workspaceId, url), JSON.stringify({ workspaceId, url })).toStrictEqual(expected);
        if (expected) found += 1;
      }
    }
    expect(found).toBeGreaterThan(10);
  });

  it('contentMapPageAddress: a page\'s address, NULL where its URL has none, nothing for another workspace\'s page', async () => {
    const asked: Array<[string, string]> = [
      ...data.main.pageIds.map((id) => [data.main.workspaceId, id] as [string, string]),
      [data.main.workspaceId, data.other.pageIds[0]!],
      [data.other.workspaceId, data.other.pageIds[0]!],
      [data.main.workspaceId, UNKNOWN_ID],
    ];
    for (const [workspaceId, id] of asked) {
      expect(await postgres.contentMapPageAddress(workspaceId, id), id).toStrictEqual(await sqlite.contentMapPageAddress(workspaceId, id));
    }
    expect(await sqlite.contentMapPageAddress(data.main.workspaceId, data.main.pageIds.at(-1)!)).toBeNull();
    expect(await sqlite.contentMapPageAddress(data.main.workspaceId, data.other.pageIds[0]!)).toBeUndefined();
  });
});
