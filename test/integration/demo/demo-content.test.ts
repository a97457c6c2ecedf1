import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateContent } from '../../../src/demo/generate-content.js';
import { generateDemoData } from '../../../src/demo/generate-demo-data.js';
import { importLines } from '../../../src/import/import-ndjson.js';
import type { Store } from '../../../src/store/index.js';
import { createTestStore } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { rowsOf, valueOf, valuesOf } from '../../support/database-rows.js';

let store: Store;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ store, cleanup } = await createTestStore());
});
afterEach(() => cleanup());

const today = new Date('2026-11-22T15:00:00Z');
const small = { seed: 7, prompts: 40, days: 30, answersPerDay: 1, today };

describe('demo content data', () => {
  it('when generated twice with the same seed and day, is identical', () => {
    expect([...generateContent(small)]).toEqual([...generateContent(small)]);
  });

  it('when imported with the visibility demo, links every record and every cited brand page to a content-map page', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const summary = await importLines(store, workspaceId, generateDemoData({ ...small, idNamespace: workspaceId }), { events: false });
    expect(summary).toMatchObject({ updated: 0, unchanged: 0, deleted: 0, events: 0 });
    expect(summary.events_suppressed).toBeGreaterThan(0);

    const all = (sql: string) => valuesOf(store, sql, [workspaceId]);
    const one = (sql: string) => valueOf(store, sql, [workspaceId]);
    // Topics are the visibility categories; every list and kind has something to show.
    expect(await all('SELECT name FROM topics WHERE workspace_id = ? ORDER BY name')).toEqual(await all('SELECT name FROM categories WHERE workspace_id = ? ORDER BY name'));
    expect(await all('SELECT DISTINCT type FROM iq_records WHERE workspace_id = ? ORDER BY type')).toEqual(['content_type', 'persona', 'product', 'visual_guideline', 'voice']);
    expect(await all('SELECT DISTINCT type FROM sitemap_urls WHERE workspace_id = ? ORDER BY type')).toEqual(['page', 'sitemap']);
    expect((await all('SELECT DISTINCT status FROM articles WHERE workspace_id = ?')).length).toBeGreaterThanOrEqual(4);
    // Ideas belong to research batches on their own topic; articles to topics and batches.
    expect(await one('SELECT count(*) FROM ideas i JOIN research_batches b ON b.id = i.research_batch_id AND b.topic_id = i.topic_id WHERE i.workspace_id = ?'))
      .toBe(await one('SELECT count(*) FROM ideas WHERE workspace_id = ?'));
    expect(await one('SELECT count(*) FROM articles WHERE workspace_id = ? AND (topic_id IS NULL OR research_batch_id IS NULL)')).toBe(0);
    expect(await one('SELECT count(*) FROM ideas WHERE workspace_id = ?')).toBeGreaterThan(5);
    // Every brand page an answer cites is a page of the content map, on a topic.
    const cited = [...new Set((await all('SELECT citations FROM snapshots WHERE workspace_id = ?') as string[])
      .flatMap((citations) => (JSON.parse(citations) as Array<{ url: string }>).map((c) => c.url))
      .filter((url) => url.startsWith('https://acme-analytics.example/')))];
    expect(cited.length).toBeGreaterThan(10);
    for (const url of cited) {
      expect(await rowsOf(store, 'SELECT topic_id FROM pages WHERE workspace_id = ? AND url = ?', [workspaceId, url]), url).toEqual([{ topic_id: expect.any(String) }]);
    }
  }, 120_000);
});
