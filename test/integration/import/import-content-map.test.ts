import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importLines } from '../../../src/import/import-ndjson.js';
import type { Store } from '../../../src/store/index.js';
import { createTestStore } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { storeContents } from '../../support/database-rows.js';
import { changed, expectImportRejected, outboxEvents, pageLine, siteLine, topicLine } from '../../support/content-records.js';

let store: Store;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ store, cleanup } = await createTestStore());
});
afterEach(() => cleanup());

describe('import: topic', () => {
  it('when a topic is new, inserts it with sorted keywords and computed totals, and announces its first stage', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const topic = topicLine({ keywords: [{ keyword: 'b', msv: 10, kd: 1 }, { keyword: 'a', msv: 10, kd: 2 }, { keyword: 'c', msv: 30, kd: 2 }] });

    expect(await importLines(store, workspaceId, [topic.line])).toEqual({ records: 1, inserted: 1, updated: 0, unchanged: 0, deleted: 0, events: 1, events_suppressed: 0 });
    const stored = (await store.contentMap.getTopic(workspaceId, topic.id))!;
    expect(stored).toMatchObject({
      keywords: [{ keyword: 'c', msv: 30, kd: 2 }, { keyword: 'a', msv: 10, kd: 2 }, { keyword: 'b', msv: 10, kd: 1 }],
      totalMsv: 50,
      avgKd: 2,
    });
    expect(await outboxEvents(store, workspaceId)).toEqual([{ type: 'topic.status_updated', data: stored }]);
  });

  it('when an existing topic changes stage, sends topic.status_updated with the stored topic as data', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const topic = topicLine({ stage: 'PROCESSING' });
    await importLines(store, workspaceId, [topic.line], { events: false });

    const summary = await importLines(store, workspaceId, [changed(topic, { stage: 'READY', updated_at: '2026-03-09T00:00:00.000Z' }).line]);

    expect(summary).toEqual({ records: 1, inserted: 0, updated: 1, unchanged: 0, deleted: 0, events: 1, events_suppressed: 0 });
    const stored = (await store.contentMap.getTopic(workspaceId, topic.id))!;
    expect(stored.stage).toBe('READY');
    expect(await outboxEvents(store, workspaceId)).toEqual([{ type: 'topic.status_updated', data: stored }]);
  });

  it('when the same topic is imported again, or changes without a new stage, sends no event', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const topic = topicLine();
    await importLines(store, workspaceId, [topic.line], { events: false });
    const before = await storeContents(store);

    expect(await importLines(store, workspaceId, [topic.line])).toEqual({ records: 1, inserted: 0, updated: 0, unchanged: 1, deleted: 0, events: 0, events_suppressed: 0 });
    expect(await storeContents(store)).toEqual(before);
    expect(await importLines(store, workspaceId, [changed(topic, { coverage: 80 }).line])).toMatchObject({ updated: 1, events: 0 });
    expect(await outboxEvents(store, workspaceId)).toEqual([]);
  });

  it('when another line of the file is bad, neither the stage change nor its event is kept', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const topic = topicLine({ stage: 'READY' });
    await importLines(store, workspaceId, [topic.line], { events: false });
    const missing = randomUUID();

    await expectImportRejected(store, workspaceId, [
      changed(topic, { stage: 'COMPLETED' }).line,
      topicLine({ coverage: 101 }).line,
    ], 'line 2: coverage: must be <= 100');
    // This one fails only at the end of the file, after the stage change and its event were written.
    await expectImportRejected(store, workspaceId, [
      changed(topic, { stage: 'COMPLETED' }).line,
      pageLine({ site_id: missing }).line,
    ], `line 2: site_id: no site with id ${missing} in this workspace`);
    expect(await outboxEvents(store, workspaceId)).toEqual([]);
    expect((await store.contentMap.getTopic(workspaceId, topic.id))?.stage).toBe('READY');
  });

  it('when a keyword appears twice, rejects the file naming it', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    await expectImportRejected(store, workspaceId, [
      topicLine({ keywords: [{ keyword: 'geo', msv: 1, kd: 1 }, { keyword: 'geo', msv: 2, kd: 2 }] }).line,
    ], 'line 1: keywords[1].keyword: "geo" appears twice');
  });

  it('when updated_at is before created_at, rejects the file', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    await expectImportRejected(store, workspaceId, [
      topicLine({ created_at: '2026-03-01T10:00:00Z', updated_at: '2026-03-01T09:00:00Z' }).line,
    ], 'line 1: updated_at: may not be before created_at (2026-03-01T10:00:00.000Z)');
  });
});

describe('import: site', () => {
  it('when an existing site completes processing, sends sitemap_url.status_updated; progress alone sends nothing', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const site = siteLine({ processing: { total: 10, ready: 2, failed: 0, completed: false } });
    expect(await importLines(store, workspaceId, [site.line])).toMatchObject({ inserted: 1, events: 0 });

    expect(await importLines(store, workspaceId, [changed(site, { processing: { total: 10, ready: 8, failed: 0, completed: false } }).line]))
      .toMatchObject({ updated: 1, events: 0 });
    expect(await importLines(store, workspaceId, [changed(site, { processing: { total: 10, ready: 9, failed: 1, completed: true } }).line]))
      .toMatchObject({ updated: 1, events: 1 });

    const stored = (await store.contentMap.getSitemapUrl(workspaceId, site.id))!;
    expect(stored.processing).toEqual({ total: 10, ready: 9, failed: 1, completed: true });
    expect(await outboxEvents(store, workspaceId)).toEqual([{ type: 'sitemap_url.status_updated', data: stored }]);
  });

  it('when pages fail while processing runs, or processing reopens, sends nothing; a new outcome of a completed site is sent', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const site = siteLine({ processing: { total: 10, ready: 2, failed: 0, completed: false } });
    await importLines(store, workspaceId, [site.line]);

    expect(await importLines(store, workspaceId, [changed(site, { processing: { total: 10, ready: 2, failed: 3, completed: false } }).line]))
      .toMatchObject({ updated: 1, events: 0 });
    expect(await importLines(store, workspaceId, [changed(site, { processing: { total: 10, ready: 7, failed: 3, completed: true } }).line]))
      .toMatchObject({ updated: 1, events: 1 });
    expect(await importLines(store, workspaceId, [changed(site, { processing: { total: 10, ready: 7, failed: 3, completed: true }, url_count: 11 }).line]))
      .toMatchObject({ updated: 1, events: 0 });
    expect(await importLines(store, workspaceId, [changed(site, { processing: { total: 12, ready: 7, failed: 3, completed: false } }).line]))
      .toMatchObject({ updated: 1, events: 0 });
    expect(await importLines(store, workspaceId, [changed(site, { processing: { total: 12, ready: 7, failed: 5, completed: true } }).line]))
      .toMatchObject({ updated: 1, events: 1 });
  });

  it('when processing counts do not add up, rejects the file', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    await expectImportRejected(store, workspaceId, [
      siteLine({ processing: { total: 3, ready: 3, failed: 1, completed: false } }).line,
    ], 'line 1: processing: ready (3) + failed (1) may not exceed total (3)');
    await expectImportRejected(store, workspaceId, [
      siteLine({ processing: { total: 3, ready: 1, failed: 1, completed: true } }).line,
    ], 'line 1: processing.completed: may only be true when ready + failed = total (1 + 1 ≠ 3)');
  });

  it('when the url is not an absolute http(s) URL, rejects the file', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const error = await importLines(store, workspaceId, [siteLine({ url: 'ftp://acme.example/sitemap.xml' }).line]).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^line 1: url: /);
  });
});

describe('import: page', () => {
  it('when a page refers to its site and topic, stores it; omitted optional fields are null', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const site = siteLine();
    const page = pageLine({ site_id: site.id, title: undefined, last_fetched_at: undefined, status: 'PROCESSING' });

    expect(await importLines(store, workspaceId, [page.line, site.line])).toMatchObject({ inserted: 2, events: 0 });
    expect(await store.contentMap.getPage(workspaceId, page.id)).toEqual({
      id: page.id,
      url: 'https://www.acme.example/blog/ai-visibility-guide',
      title: null,
      site_id: site.id,
      topic_id: null,
      status: 'PROCESSING',
      last_fetched_at: null,
      created_at: '2026-03-01T10:00:00.000Z',
      updated_at: '2026-03-01T10:00:00.000Z',
    });
    expect(await importLines(store, workspaceId, [page.line, site.line])).toMatchObject({ unchanged: 2 });
  });

  it('when the site does not exist in the workspace, rejects the file naming site_id', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const missing = randomUUID();
    await expectImportRejected(store, workspaceId, [pageLine({ site_id: missing }).line], `line 1: site_id: no site with id ${missing} in this workspace`);
  });

  it('when topic_id refers to a site, rejects the file', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const site = siteLine();
    await importLines(store, workspaceId, [site.line]);
    await expectImportRejected(store, workspaceId, [pageLine({ site_id: site.id, topic_id: site.id }).line], 'line 1: topic_id: refers to a site, not a topic');
  });

  it('when the site belongs to another workspace, rejects the file', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const other = await createTestWorkspace(store);
    const site = siteLine();
    await importLines(store, other.workspaceId, [site.line]);
    await expectImportRejected(store, workspaceId, [pageLine({ site_id: site.id }).line], 'line 1: site_id: refers to a record of another workspace');
  });
});
