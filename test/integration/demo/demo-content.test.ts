import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateContent } from '../../../src/demo/generate-content.js';
import { generateDemoData } from '../../../src/demo/generate-demo-data.js';
import { importLines } from '../../../src/import/import-ndjson.js';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { createTestStore } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';

let store: SqliteStore;
let cleanup: () => void;
beforeEach(() => {
  ({ store, cleanup } = createTestStore());
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

    const all = (sql: string) => store.db.prepare(sql).pluck().all(workspaceId);
    const one = (sql: string) => store.db.prepare(sql).pluck().get(workspaceId);
    // Topics are the visibility categories; every list and kind has something to show.
    expect(all('SELECT name FROM topics WHERE workspace_id = ? ORDER BY name')).toEqual(all('SELECT name FROM categories WHERE workspace_id = ? ORDER BY name'));
    expect(all('SELECT DISTINCT type FROM iq_records WHERE workspace_id = ? ORDER BY type')).toEqual(['content_type', 'persona', 'product', 'visual_guideline', 'voice']);
    expect(all('SELECT DISTINCT type FROM sitemap_urls WHERE workspace_id = ? ORDER BY type')).toEqual(['page', 'sitemap']);
    expect((all('SELECT DISTINCT status FROM articles WHERE workspace_id = ?') as string[]).length).toBeGreaterThanOrEqual(4);
    // Ideas belong to research batches on their own topic; articles to topics and batches.
    expect(one('SELECT count(*) FROM ideas i JOIN research_batches b ON b.id = i.research_batch_id AND b.topic_id = i.topic_id WHERE i.workspace_id = ?'))
      .toBe(one('SELECT count(*) FROM ideas WHERE workspace_id = ?'));
    expect(one('SELECT count(*) FROM articles WHERE workspace_id = ? AND (topic_id IS NULL OR research_batch_id IS NULL)')).toBe(0);
    expect(one('SELECT count(*) FROM ideas WHERE workspace_id = ?')).toBeGreaterThan(5);
    // Every brand page an answer cites is a page of the content map, on a topic.
    const cited = all(`SELECT DISTINCT json_extract(c.value, '$.url') FROM snapshots s, json_each(s.citations) c
      WHERE s.workspace_id = ? AND json_extract(c.value, '$.url') LIKE 'https://acme-analytics.example/%'`) as string[];
    expect(cited.length).toBeGreaterThan(10);
    const page = store.db.prepare('SELECT topic_id FROM pages WHERE workspace_id = ? AND url = ?');
    for (const url of cited) expect(page.get(workspaceId, url), url).toEqual({ topic_id: expect.any(String) });
  }, 120_000);
});
