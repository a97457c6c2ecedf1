// The cited-page rollup of an import on PostgreSQL (the sums of `../../../import-engine/cited-page-rollup.ts`),
// written with each batch: the URLs first, then each day's citations. A URL new to the workspace is
// numbered as SQLite numbers its rows (the largest number so far plus one, in the order the sums
// reached the URLs), under the import lock, which every writer of the table holds; the identity
// sequence is left alone, since it would keep numbers a rolled-back import took.
import type pg from 'pg';
import type { CitedPageDelta, CitedPageSink, CitedUrlTouch } from '../../../import-engine/cited-page-rollup.js';
import { hostOf } from '../../domains.js';
import { pageAddress } from '../../page-address.js';
import { copyRows } from './table-writes.js';

const DAILY_COLUMNS = ['workspace_id', 'day', 'url_id', 'prompt_id', 'platform', 'citations'];

interface Title {
  title: string;
  ms: number;
}

/**
 * The cited-page sink of one import: `write` (from the sums' flushes) keeps the batch's URLs in the
 * order first reached, each with the title that wins (collected latest, the later one on a tie, as
 * applying them one after the other would leave it), and sums the deltas; `take` takes them to be written.
 */
export class PostgresCitedPageSink implements CitedPageSink {
  private urls = new Map<string, Title | undefined>();
  private readonly deltas = new Map<string, CitedPageDelta>();

  /**
   * @param lastDay the latest day of the workspace's stored rows (null: none). A day after it has
   * no row until this import writes one, so a file of later days (a first import, or the next
   * days of a workspace) adds rows without looking for stored ones.
   */
  constructor(
    private readonly workspaceId: string,
    private lastDay: number | null,
  ) {}

  write(urls: readonly CitedUrlTouch[], deltas: readonly CitedPageDelta[]): void {
    for (const { url, title } of urls) {
      const known = this.urls.get(url);
      if (!this.urls.has(url) || (title && (!known || title.ms >= known.ms))) this.urls.set(url, title ?? known);
    }
    for (const d of deltas) {
      const key = `${d.day} ${d.promptId} ${d.platform} ${d.url}`;
      const known = this.deltas.get(key);
      if (known) known.citations += d.citations;
      else this.deltas.set(key, { ...d });
    }
  }

  /**
   * Takes what the batch summed, at once (sums added later wait for the next write), and writes it
   * when the returned function runs: the URLs first, then each day's citations.
   */
  take(): (client: pg.PoolClient) => Promise<void> {
    const urls = this.urls;
    const deltas = [...this.deltas.values()].filter((d) => d.citations !== 0);
    this.urls = new Map();
    this.deltas.clear();
    const after = this.lastDay ?? Number.NEGATIVE_INFINITY;
    // A delta is the net change of its key since the last write, so one below zero takes back what an earlier write (or an earlier import) stored.
    const added = deltas.filter((d) => d.day > after && d.citations > 0);
    for (const d of added) if (this.lastDay === null || d.day > this.lastDay) this.lastDay = d.day;
    const changed = added.length === deltas.length ? [] : deltas.filter((d) => d.day <= after || d.citations < 0);
    return async (client) => {
      if (urls.size === 0) return;
      const ids = await this.writeUrls(client, urls);
      await copyRows(client, 'cited_page_daily', DAILY_COLUMNS, added.map((d) => [this.workspaceId, d.day, ids.get(d.url)!, d.promptId, d.platform, d.citations]));
      if (changed.length > 0) await this.addToRows(client, changed, ids);
    };
  }

  /** Adds deltas to rows that may be stored; a row that falls to zero goes. */
  private async addToRows(client: pg.PoolClient, changed: readonly CitedPageDelta[], ids: ReadonlyMap<string, number>): Promise<void> {
    const params = [
      this.workspaceId,
      changed.map((d) => d.day),
      changed.map((d) => ids.get(d.url)!),
      changed.map((d) => d.promptId),
      changed.map((d) => d.platform),
      changed.map((d) => d.citations),
    ];
    await client.query(
      `INSERT INTO cited_page_daily (workspace_id, day, url_id, prompt_id, platform, citations)
       SELECT $1, u.* FROM unnest($2::int[], $3::bigint[], $4::text[], $5::text[], $6::bigint[]) AS u
       ON CONFLICT (workspace_id, day, url_id, prompt_id, platform) DO UPDATE SET citations = cited_page_daily.citations + excluded.citations`,
      params,
    );
    const falling = changed.filter((d) => d.citations < 0);
    if (falling.length === 0) return;
    await client.query(
      `DELETE FROM cited_page_daily t USING unnest($2::int[], $3::bigint[], $4::text[], $5::text[]) AS u(day, url_id, prompt_id, platform)
       WHERE t.workspace_id = $1 AND t.day = u.day AND t.url_id = u.url_id AND t.prompt_id = u.prompt_id AND t.platform = u.platform
         AND t.citations <= 0`,
      [this.workspaceId, falling.map((d) => d.day), falling.map((d) => ids.get(d.url)!), falling.map((d) => d.promptId), falling.map((d) => d.platform)],
    );
  }

  /** Each URL's row, new ones numbered in order, titles kept when newer; url → id. */
  private async writeUrls(client: pg.PoolClient, touched: ReadonlyMap<string, Title | undefined>): Promise<Map<string, number>> {
    const urls = [...touched.keys()];
    const ids = new Map<string, number>();
    const stored = await client.query<{ url: string; id: number }>('SELECT url, id FROM cited_urls WHERE workspace_id = $1 AND url = ANY($2::text[])', [
      this.workspaceId,
      urls,
    ]);
    for (const { url, id } of stored.rows) ids.set(url, id);
    const fresh = urls.filter((url) => !ids.has(url));
    if (fresh.length > 0) {
      const titles = fresh.map((url) => touched.get(url));
      const inserted = await client.query<{ url: string; id: number }>(
        `INSERT INTO cited_urls (id, workspace_id, url, domain, address, title, title_collected_ms)
         SELECT top.id + u.n, $1, u.url, u.domain, u.address, u.title, u.ms
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[]) WITH ORDINALITY AS u(url, domain, address, title, ms, n),
           (SELECT coalesce(max(id), 0) AS id FROM cited_urls) top
         RETURNING url, id`,
        [this.workspaceId, fresh, fresh.map(hostOf), fresh.map(pageAddress), titles.map((t) => t?.title ?? null), titles.map((t) => t?.ms ?? null)],
      );
      for (const { url, id } of inserted.rows) ids.set(url, id);
    }
    const isFresh = new Set(fresh);
    const retitled = urls.filter((url) => !isFresh.has(url) && touched.get(url) !== undefined);
    if (retitled.length > 0) {
      const titles = retitled.map((url) => touched.get(url)!);
      await client.query(
        `UPDATE cited_urls c SET title = u.title, title_collected_ms = u.ms
         FROM unnest($2::text[], $3::text[], $4::bigint[]) AS u(url, title, ms)
         WHERE c.workspace_id = $1 AND c.url = u.url AND u.ms >= coalesce(c.title_collected_ms, -1)`,
        [this.workspaceId, retitled, titles.map((t) => t.title), titles.map((t) => t.ms)],
      );
    }
    return ids;
  }
}
