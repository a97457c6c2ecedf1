import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../src/store/index.js';
import { readCitedPages } from '../../../src/visibility/cited-pages.js';
import { databaseBefore } from '../../support/migrations.js';
import { Cursors } from '../../../src/pagination/cursor.js';

// A database written before migration 032 has pages and cited URLs without page addresses;
// opening it with this version gives them one, so the pages cited before the upgrade are tied to
// the content map like new ones.

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const WS = '11111111-1111-4111-8111-111111111111';
const PAGE = '22222222-2222-4222-8222-222222222222';
const TOPIC = '33333333-3333-4333-8333-333333333333';
const SITE = '44444444-4444-4444-8444-444444444444';
const AT = '2026-11-01T00:00:00.000Z';

function databaseBefore032(): string {
  dir = mkdtempSync(path.join(tmpdir(), 'wsapi-migration-'));
  return databaseBefore(dir, '032', (db) => {
    db.prepare('INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)').run(WS, 'Acme', AT);
    db.prepare(
      `INSERT INTO topics (id, workspace_id, name, stage, keywords, total_msv, msv_badge, avg_kd, kd_badge, coverage, created_at, updated_at)
       VALUES (?, ?, 'Pricing', 'READY', '[]', 0, 'LOW', 0, 'LOW', 0, ?, ?)`,
    ).run(TOPIC, WS, AT, AT);
    db.prepare(
      `INSERT INTO sitemap_urls (id, workspace_id, url, type, url_count, last_fetched_at, processing_total, processing_ready,
         processing_failed, processing_completed, created_at, updated_at)
       VALUES (?, ?, 'https://acme.example/sitemap.xml', 'sitemap', 1, ?, 1, 1, 0, 1, ?, ?)`,
    ).run(SITE, WS, AT, AT, AT);
    db.prepare(
      `INSERT INTO pages (id, workspace_id, url, title, site_id, topic_id, status, last_fetched_at, created_at, updated_at)
       VALUES (?, ?, 'https://www.acme.example/pricing/', 'Pricing', ?, ?, 'READY', NULL, ?, ?)`,
    ).run(PAGE, WS, SITE, TOPIC, AT, AT);
    const cite = db.prepare("INSERT INTO cited_urls (workspace_id, url, domain, title, title_collected_ms) VALUES (?, ?, ?, 'Pricing', 0) RETURNING id").pluck();
    const daily = db.prepare("INSERT INTO cited_page_daily (workspace_id, day, url_id, prompt_id, platform, citations) VALUES (?, ?, ?, 'p', 'chatgpt', ?)");
    // Day 20,400 is 2025-11-08; two spellings of the page and one other page.
    daily.run(WS, 20_400, cite.get(WS, 'https://acme.example/pricing?utm_source=chatgpt.com', 'acme.example'), 3);
    daily.run(WS, 20_400, cite.get(WS, 'http://ACME.example/pricing#plans', 'acme.example'), 1);
    daily.run(WS, 20_400, cite.get(WS, 'https://acme.example/pricing?plan=pro', 'acme.example'), 2);
  });
}

describe('migration 032: page addresses', () => {
  it('when a database with pages and cited URLs opens, gives each its page address, so old citations tie to the content map', async () => {
    const store = openSqliteStore(databaseBefore032());
    const { db } = store;
    try {
      expect(db.prepare('SELECT url, address FROM pages').all()).toEqual([{ url: 'https://www.acme.example/pricing/', address: 'acme.example/pricing' }]);
      expect(db.prepare('SELECT url, address FROM cited_urls ORDER BY id').all()).toEqual([
        { url: 'https://acme.example/pricing?utm_source=chatgpt.com', address: 'acme.example/pricing' },
        { url: 'http://ACME.example/pricing#plans', address: 'acme.example/pricing' },
        { url: 'https://acme.example/pricing?plan=pro', address: 'acme.example/pricing?plan=pro' },
      ]);
      const list = await readCitedPages(store, new Cursors(randomBytes(32).toString('base64url')), {
        workspaceId: WS, range: '7d', contentMapPageId: PAGE, limit: 25, now: new Date('2025-11-10T12:00:00.000Z'),
      });
      expect(list.items.map((i) => [i.url, i.citations, i.content_map_page_id, i.topic_id])).toEqual([
        ['https://acme.example/pricing?utm_source=chatgpt.com', 3, PAGE, TOPIC],
        ['http://ACME.example/pricing#plans', 1, PAGE, TOPIC],
      ]);
    } finally {
      db.close();
    }
  });
});
