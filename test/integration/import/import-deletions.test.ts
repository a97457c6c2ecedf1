import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { importLines } from '../../../src/import/import-ndjson.js';
import type { Store } from '../../../src/store/index.js';
import { testStoreForThisTest } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { competitorLine, promptLine, rollups, snapshotLine } from '../../support/import-records.js';
import {
  articleLine, changed, expectImportRejected, ideaLine, iqRecordLine, outboxEvents, pageLine, researchBatchLine, siteLine, topicLine,
} from '../../support/content-records.js';
import { rowsOf, storeContents, valueOf } from '../../support/database-rows.js';

/** The deletion line of the import format. */
const deletion = (recordType: string, id: string) => JSON.stringify({ type: 'delete', record_type: recordType, id });

/** A prompt's rows in every running-total table (none may outlive it). */
async function runningRows(store: Store, promptId: string): Promise<number> {
  let rows = 0;
  for (const table of ['prompt_day_totals', 'prompt_platform_running', 'prompt_competitor_running']) {
    rows += (await valueOf<number>(store, `SELECT count(*) FROM ${table} WHERE prompt_id = ?`, [promptId]))!;
  }
  return rows;
}

describe('import: delete lines', () => {
  it('when snapshots are deleted, their analytics leave every rollup: the rollups equal an import without them', async () => {
    const { store } = await testStoreForThisTest();
    const kept = await createTestWorkspace(store);
    const trimmed = await createTestWorkspace(store);
    const rival = (ws: string) => competitorLine({ name: `Rival ${ws.slice(0, 4)}` });
    // The same answers in two workspaces (fresh ids each); one workspace then loses two of them.
    const build = (ws: string) => {
      const competitor = rival(ws);
      const prompt = promptLine();
      const days = ['2026-03-01T09:00:00Z', '2026-03-02T09:00:00Z', '2026-03-02T15:00:00Z', '2026-03-04T09:00:00Z'];
      const snapshots = days.map((collected_at, i) => snapshotLine({
        prompt_id: prompt.id, collected_at, platform: i % 2 === 0 ? 'chatgpt' : 'claude', mentioned: i !== 1, cited: i === 2,
        competitors: i < 3 ? [competitor.record.name as string] : [], citations: [{ url: `https://acme.example/p${i}`, title: `Page ${i}` }],
      }));
      return { competitor, prompt, snapshots };
    };
    const a = build(kept.workspaceId);
    const b = build(trimmed.workspaceId);
    await importLines(store, kept.workspaceId, [a.competitor.line, a.prompt.line, a.snapshots[0]!.line, a.snapshots[3]!.line]);
    await importLines(store, trimmed.workspaceId, [b.competitor.line, b.prompt.line, ...b.snapshots.map((s) => s.line)]);

    const summary = await importLines(store, trimmed.workspaceId, [deletion('snapshot', b.snapshots[1]!.id), deletion('snapshot', b.snapshots[2]!.id.toUpperCase())]);

    expect(summary).toEqual({ records: 2, inserted: 0, updated: 0, unchanged: 0, deleted: 2, events: 0, events_suppressed: 0 });
    const renamed = (r: Record<string, unknown[]>, from: typeof a, to: typeof b) =>
      JSON.parse(JSON.stringify(r).replaceAll(from.prompt.id, to.prompt.id).replaceAll(from.competitor.id, to.competitor.id)
        .replaceAll(kept.workspaceId, trimmed.workspaceId)) as unknown;
    expect(await rollups(store, trimmed.workspaceId)).toEqual(renamed(await rollups(store, kept.workspaceId), a, b));
    const citedDays = (ws: string) => rowsOf(store, 'SELECT day, prompt_id, platform, citations FROM cited_page_daily WHERE workspace_id = ? ORDER BY day', [ws]);
    expect(JSON.stringify(await citedDays(trimmed.workspaceId))).toBe(JSON.stringify(await citedDays(kept.workspaceId)).replaceAll(a.prompt.id, b.prompt.id));
    expect(await valueOf(store, 'SELECT count(*) FROM snapshots WHERE workspace_id = ?', [trimmed.workspaceId])).toBe(2);
  });

  it('when a prompt is deleted, its answers and every running total of it go too; the workspace rollups keep only the others', async () => {
    const { store } = await testStoreForThisTest();
    const { workspaceId } = await createTestWorkspace(store);
    const gone = promptLine();
    const stays = promptLine();
    const answers = [gone, gone, stays].map((p, i) => snapshotLine({ prompt_id: p.id, collected_at: `2026-03-0${i + 1}T09:00:00Z` }));
    await importLines(store, workspaceId, [gone.line, stays.line, ...answers.map((s) => s.line)]);

    expect(await importLines(store, workspaceId, [deletion('prompt', gone.id)])).toMatchObject({ records: 1, deleted: 3 });

    expect(await runningRows(store, gone.id)).toBe(0);
    expect(await runningRows(store, stays.id)).toBeGreaterThan(0);
    expect(await valueOf(store, 'SELECT sum(total) FROM workspace_daily WHERE workspace_id = ?', [workspaceId])).toBe(1);
    expect(await valueOf(store, 'SELECT count(*) FROM record_ids WHERE id IN (?, ?, ?)', [gone.id, answers[0]!.id, answers[1]!.id])).toBe(0);
  });

  it('when a deleted record is imported again, it comes back as a new record (and announces itself)', async () => {
    const { store } = await testStoreForThisTest();
    const { workspaceId } = await createTestWorkspace(store);
    const article = articleLine({ status: 'PUBLISHED' });
    await importLines(store, workspaceId, [article.line], { events: false });

    expect(await importLines(store, workspaceId, [deletion('article', article.id), article.line]))
      .toEqual({ records: 2, inserted: 1, updated: 0, unchanged: 0, deleted: 1, events: 1, events_suppressed: 0 });
    expect((await store.content.getArticle(workspaceId, article.id))?.status).toBe('PUBLISHED');
    expect(await outboxEvents(store, workspaceId)).toHaveLength(1);
  });

  it('when the id is unknown, of another workspace or of another type, rejects the file naming the line, and writes nothing', async () => {
    const { store } = await testStoreForThisTest();
    const { workspaceId } = await createTestWorkspace(store);
    const other = await createTestWorkspace(store);
    const mine = topicLine();
    const theirs = topicLine();
    await importLines(store, workspaceId, [mine.line]);
    await importLines(store, other.workspaceId, [theirs.line]);
    const unknown = randomUUID();

    await expectImportRejected(store, workspaceId, [articleLine().line, deletion('article', unknown)], `line 2: id: no article with id ${unknown} in this workspace`);
    await expectImportRejected(store, workspaceId, [deletion('topic', theirs.id)], `line 1: id: no topic with id ${theirs.id} in this workspace`);
    await expectImportRejected(store, workspaceId, [deletion('page', mine.id)], `line 1: record_type: ${mine.id} is a topic record, not a page`);
    await expectImportRejected(store, workspaceId, [deletion('topic', mine.id), deletion('topic', mine.id)], `line 2: id: no topic with id ${mine.id} in this workspace`);
    await expectImportRejected(store, workspaceId, [JSON.stringify({ type: 'delete', record_type: 'workspace_plan', id: unknown })], 'line 1: record_type: "workspace_plan" is not one of category, competitor, topic, site, page, research_batch, idea, article, agent_task, iq_record, prompt, snapshot');
    expect(await store.contentMap.getTopic(workspaceId, mine.id)).toBeDefined();
  });

  it('when a record is still referred to at the end of the file, rejects the file at the delete line; deleting the referrers too is accepted', async () => {
    const { store } = await testStoreForThisTest();
    const { workspaceId } = await createTestWorkspace(store);
    const topic = topicLine();
    const site = siteLine();
    const page = pageLine({ site_id: site.id, topic_id: topic.id });
    const batch = researchBatchLine({ topic_id: topic.id });
    const idea = ideaLine({ research_batch_id: batch.id });
    const product = iqRecordLine('product');
    const persona = iqRecordLine('persona', { product_id: product.id });
    await importLines(store, workspaceId, [topic.line, site.line, page.line, batch.line, idea.line, product.line, persona.line], { events: false });

    await expectImportRejected(store, workspaceId, [deletion('site', site.id)], `line 1: id: site ${site.id} is still referred to by page ${page.id} (site_id): delete it or change it in the same file`);
    await expectImportRejected(store, workspaceId, [deletion('idea', idea.id), deletion('research_batch', batch.id), deletion('topic', topic.id)],
      `line 3: id: topic ${topic.id} is still referred to by page ${page.id} (topic_id): delete it or change it in the same file`);
    await expectImportRejected(store, workspaceId, [deletion('iq_record', product.id)],
      `line 1: id: iq_record ${product.id} is still referred to by iq_record ${persona.id} (product_id): delete it or change it in the same file`);
    // A line after the deletion that refers to the deleted record fails as a reference to nothing.
    await expectImportRejected(store, workspaceId, [deletion('idea', idea.id), deletion('research_batch', batch.id), ideaLine({ research_batch_id: batch.id }).line],
      `line 3: research_batch_id: no research_batch with id ${batch.id} in this workspace`);

    const before = await storeContents(store);
    const summary = await importLines(store, workspaceId, [
      deletion('research_batch', batch.id),
      changed(page, { topic_id: null }).line,
      deletion('idea', idea.id),
      deletion('topic', topic.id),
      deletion('iq_record', persona.id),
      deletion('iq_record', product.id),
    ]);
    expect(summary).toMatchObject({ records: 6, updated: 1, deleted: 5 });
    expect(await storeContents(store)).not.toEqual(before);
    expect(await Promise.all([store.contentMap.getTopic(workspaceId, topic.id), store.content.getResearchBatch(workspaceId, batch.id), store.iq.get(workspaceId, product.id)]))
      .toEqual([undefined, undefined, undefined]);
    expect((await store.contentMap.getPage(workspaceId, page.id))?.topic_id).toBeNull();
  });

  it('when a competitor is still named by answers, refuses to delete it; once they are gone, it goes and later answers cannot name it', async () => {
    const { store } = await testStoreForThisTest();
    const { workspaceId } = await createTestWorkspace(store);
    const rival = competitorLine({ name: 'Chartwise' });
    const prompt = promptLine();
    const answer = snapshotLine({ prompt_id: prompt.id, competitors: ['chartwise'] });
    await importLines(store, workspaceId, [rival.line, prompt.line, answer.line]);

    await expectImportRejected(store, workspaceId, [deletion('competitor', rival.id)],
      `line 1: id: competitor ${rival.id} is still referred to by answers on 1 day that name it (delete them or import them without it): delete it or change it in the same file`);
    expect(await importLines(store, workspaceId, [changed(answer, { competitors: [] }).line, deletion('competitor', rival.id)])).toMatchObject({ updated: 1, deleted: 1 });
    await expectImportRejected(store, workspaceId, [changed(answer, { competitors: ['Chartwise'] }).line],
      'line 1: competitors[0]: "Chartwise" is not a competitor this workspace tracks');
  });
});
