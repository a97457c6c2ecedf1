// The cited-page rollup of an import on PostgreSQL (the sums of `../../import/cited-page-rollup.ts`),
// written with each batch: the URLs first, then each day's citations. A URL new to the workspace is
// numbered as SQLite numbers its rows (the largest number so far plus one, in the order the sums
// reached the URLs), under the import lock, which every writer of the table holds; the identity
// sequence is left alone, since it would keep numbers a rolled-back import took.
import type pg from 'pg';
import type { CitedPageDelta, CitedPageSink, CitedUrlTouch } from '../../import/cited-page-rollup.js';
import { hostOf } from '../../domains.js';
import { pageAddress } from '../../page-address.js';

interface Title {
  title: string;
  ms: number;
}

/**
 * The cited-page sink of one import: `write` (from the sums' flushes) keeps the batch's URLs in the
 * order first reached, each with the title that wins (collected latest, the later one on a tie, as
 * applying them one after the other would leave it), and sums the deltas; `flush` sends them.
 */
export class PostgresCitedPageSink implements CitedPageSink {
  private readonly urls = new Map<string, Title | undefined>();
  private readonly deltas = new Map<string, CitedPageDelta>();

  constructor(private readonly workspaceId: string) {}

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

  async flush(client: pg.PoolClient): Promise<void> {
    if (this.urls.size === 0) return;
    const ids = await this.writeUrls(client);
    const deltas = [...this.deltas.values()].filter((d) => d.citations !== 0);
    this.urls.clear();
    this.deltas.clear();
    if (deltas.length === 0) return;
    const params = [
      this.workspaceId,
      deltas.map((d) => d.day),
      deltas.map((d) => ids.get(d.url)!),
      deltas.map((d) => d.promptId),
      deltas.map((d) => d.platform),
      deltas.map((d) => d.citations),
    ];
    await client.query(
      `INSERT INTO cited_page_daily (workspace_id, day, url_id, prompt_id, platform, citations)
       SELECT $1, u.* FROM unnest($2::int[], $3::bigint[], $4::text[], $5::text[], $6::bigint[]) AS u
       ON CONFLICT (workspace_id, day, url_id, prompt_id, platform) DO UPDATE SET citations = cited_page_daily.citations + excluded.citations`,
      params,
    );
    const falling = deltas.filter((d) => d.citations < 0);
    if (falling.length === 0) return;
    await client.query(
      `DELETE FROM cited_page_daily t USING unnest($2::int[], $3::bigint[], $4::text[], $5::text[]) AS u(day, url_id, prompt_id, platform)
       WHERE t.workspace_id = $1 AND t.day = u.day AND t.url_id = u.url_id AND t.prompt_id = u.prompt_id AND t.platform = u.platform
         AND t.citations <= 0`,
      [this.workspaceId, falling.map((d) => d.day), falling.map((d) => ids.get(d.url)!), falling.map((d) => d.promptId), falling.map((d) => d.platform)],
    );
  }

  /** Each URL's row, new ones numbered in order, titles kept when newer; url → id. */
  private async writeUrls(client: pg.PoolClient): Promise<Map<string, number>> {
    const urls = [...this.urls.keys()];
    const ids = new Map<string, number>();
    const stored = await client.query<{ url: string; id: number }>('SELECT url, id FROM cited_urls WHERE workspace_id = $1 AND url = ANY($2::text[])', [
      this.workspaceId,
      urls,
    ]);
    for (const { url, id } of stored.rows) ids.set(url, id);
    const fresh = urls.filter((url) => !ids.has(url));
    if (fresh.length > 0) {
      const titles = fresh.map((url) => this.urls.get(url));
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
    const retitled = urls.filter((url) => !isFresh.has(url) && this.urls.get(url) !== undefined);
    if (retitled.length > 0) {
      const titles = retitled.map((url) => this.urls.get(url)!);
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
