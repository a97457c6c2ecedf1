import { PassThrough, Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importLines, importNdjson } from '../../../src/import/import-ndjson.js';
import type { Store } from '../../../src/store/index.js';
import type { SqliteStore } from '../../../src/store/sqlite/sqlite-store.js';
import { itSqliteOnly } from '../../support/store-kind.js';
import { createTestStore, sqliteTestStoreForThisTest } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { categoryLine, competitorLine } from '../../support/import-records.js';
import { rowsOf, storeContents } from '../../support/database-rows.js';

let store: Store;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ store, cleanup } = await createTestStore());
});
afterEach(() => cleanup());

function categories(workspaceId: string) {
  return rowsOf(store, 'SELECT id, name, color FROM categories WHERE workspace_id = ? ORDER BY name', [workspaceId]);
}

describe('import: reading the file', () => {
  it('when records are new, inserts them and counts them as inserted', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const pricing = categoryLine({ name: 'Pricing', color: '#4F46E5' });
    const rival = competitorLine({ name: 'Chartwise', domain: 'chartwise.example' });

    const summary = await importLines(store, workspaceId, [pricing.line, rival.line]);

    expect(summary).toEqual({ records: 2, inserted: 2, updated: 0, unchanged: 0, deleted: 0, events: 0, events_suppressed: 0 });
    expect(await categories(workspaceId)).toEqual([{ id: pricing.id, name: 'Pricing', color: '#4F46E5' }]);
    expect(await rowsOf(store, 'SELECT id, name, name_key, domain FROM competitors WHERE workspace_id = ?', [workspaceId])).toEqual([
      { id: rival.id, name: 'Chartwise', name_key: 'chartwise', domain: 'chartwise.example' },
    ]);
    expect(await rowsOf(store, 'SELECT id, type FROM record_ids WHERE workspace_id = ? ORDER BY type', [workspaceId])).toEqual([
      { id: pricing.id, type: 'category' },
      { id: rival.id, type: 'competitor' },
    ]);
  });

  it('when the same file is imported twice, the second import changes nothing and counts every record unchanged', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const lines = [categoryLine().line, competitorLine().line, categoryLine({ name: 'Integrations' }).line];
    await importLines(store, workspaceId, lines);
    const before = await storeContents(store);

    expect(await importLines(store, workspaceId, lines)).toEqual({ records: 3, inserted: 0, updated: 0, unchanged: 3, deleted: 0, events: 0, events_suppressed: 0 });
    expect(await storeContents(store)).toEqual(before);
  });

  it('when a record comes again with other values, updates it; within one file the last line wins', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const pricing = categoryLine({ name: 'Pricing' });
    await importLines(store, workspaceId, [pricing.line]);

    const summary = await importLines(store, workspaceId, [
      categoryLine({ id: pricing.id, name: 'Plans' }).line,
      categoryLine({ id: pricing.id, name: 'Plans & pricing', color: '#000000' }).line,
    ]);

    expect(summary).toEqual({ records: 2, inserted: 0, updated: 2, unchanged: 0, deleted: 0, events: 0, events_suppressed: 0 });
    expect(await categories(workspaceId)).toEqual([{ id: pricing.id, name: 'Plans & pricing', color: '#000000' }]);
  });

  it('when ids are upper-case, stores them lower-case so they match the same record in any case', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const pricing = categoryLine();
    await importLines(store, workspaceId, [categoryLine({ id: pricing.id.toUpperCase() }).line]);

    expect(await importLines(store, workspaceId, [pricing.line])).toMatchObject({ unchanged: 1 });
    expect(await categories(workspaceId)).toEqual([{ id: pricing.id, name: 'Pricing', color: '#4F46E5' }]);
  });

  it('when the stream splits lines and characters across chunks, with CRLF, a BOM and blank lines, reads every record', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const cafe = categoryLine({ name: 'Café ☕ analytics' });
    const rival = competitorLine();
    const bytes = Buffer.from(`\uFEFF${cafe.line}\r\n\r\n   \n${rival.line}`, 'utf8');
    // One byte per chunk: every multi-byte character and every line is cut somewhere.
    const chunks = [...bytes].map((b) => Buffer.from([b]));

    const summary = await importNdjson(store, workspaceId, Readable.from(chunks));

    expect(summary).toEqual({ records: 2, inserted: 2, updated: 0, unchanged: 0, deleted: 0, events: 0, events_suppressed: 0 });
    expect(await categories(workspaceId)).toEqual([{ id: cafe.id, name: 'Café ☕ analytics', color: '#4F46E5' }]);
  });

  // SQLite only: it looks at the import's own connection and reads the file from a second one.
  itSqliteOnly('while an import is still reading, other connections keep reading the previous data, then see all of it at once', async () => {
    const { store, file }: { store: SqliteStore; file: string } = sqliteTestStoreForThisTest();
    const { workspaceId } = await createTestWorkspace(store);
    const reader = new Database(file, { readonly: true });
    const count = () => reader.prepare('SELECT count(*) FROM categories WHERE workspace_id = ?').pluck().get(workspaceId);
    try {
      const input = new PassThrough();
      const importing = importNdjson(store, workspaceId, input);
      input.write(`${categoryLine().line}\n${categoryLine().line}\n`);
      await new Promise((resolve) => setImmediate(resolve));
      // The import's own connection holds the first two rows, uncommitted; the reader does not see them.
      expect(store.db.inTransaction).toBe(true);
      expect(store.db.prepare('SELECT count(*) FROM categories WHERE workspace_id = ?').pluck().get(workspaceId)).toBe(2);
      expect(count()).toBe(0);

      input.end(`${categoryLine().line}\n`);
      await importing;
      expect(count()).toBe(3);
    } finally {
      reader.close();
    }
  });

  it('when the file is empty, imports nothing', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    expect(await importNdjson(store, workspaceId, Readable.from([]))).toEqual({ records: 0, inserted: 0, updated: 0, unchanged: 0, deleted: 0, events: 0, events_suppressed: 0 });
  });

  it('when the workspace does not exist, refuses before reading', async () => {
    await expect(importLines(store, '00000000-0000-4000-8000-000000000000', [categoryLine().line])).rejects.toThrow(
      'workspace 00000000-0000-4000-8000-000000000000 does not exist',
    );
  });
});
