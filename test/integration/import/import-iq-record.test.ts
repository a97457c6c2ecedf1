import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importLines } from '../../../src/import/import-ndjson.js';
import type { Store } from '../../../src/store/index.js';
import { createTestStore } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { IQ_METADATA, changed, expectImportRejected, iqRecordLine, outboxEvents } from '../../support/content-records.js';
import { storeContents, valueOf } from '../../support/database-rows.js';

let store: Store;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ store, cleanup } = await createTestStore());
});
afterEach(() => cleanup());

describe('import: iq_record', () => {
  it('when an existing record becomes READY, sends iq.status_updated with the stored record; a re-import sends nothing', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const persona = iqRecordLine('persona', { stage: 'PROCESSING' });
    expect(await importLines(store, workspaceId, [persona.line], { events: false })).toMatchObject({ inserted: 1, events: 0, events_suppressed: 1 });

    const ready = changed(persona, { stage: 'READY', updated_at: '2026-03-05T00:00:00.000Z' });
    expect(await importLines(store, workspaceId, [ready.line])).toMatchObject({ updated: 1, events: 1 });
    const before = await storeContents(store);
    expect(await importLines(store, workspaceId, [ready.line])).toEqual({ records: 1, inserted: 0, updated: 0, unchanged: 1, deleted: 0, events: 0, events_suppressed: 0 });
    expect(await storeContents(store)).toEqual(before);

    const stored = (await store.iq.get(workspaceId, persona.id))!;
    expect(stored).toMatchObject({ type: 'persona', stage: 'READY', metadata: IQ_METADATA.persona, updatedAt: '2026-03-05T00:00:00.000Z' });
    expect(await outboxEvents(store, workspaceId)).toEqual([{ type: 'iq.status_updated', data: stored }]);
  });

  it('when a record becomes the default of its kind, the previous default loses the flag', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const first = iqRecordLine('voice', { is_default: true });
    const second = iqRecordLine('voice', { is_default: true });
    const persona = iqRecordLine('persona', { is_default: true });
    await importLines(store, workspaceId, [first.line, persona.line]);
    await importLines(store, workspaceId, [second.line]);

    expect(await Promise.all([first, second, persona].map(async (r) => (await store.iq.get(workspaceId, r.id))!.isDefault))).toEqual([false, true, true]);
  });

  it('when a persona refers to a product defined later in the file, stores the link', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const product = iqRecordLine('product');
    const persona = iqRecordLine('persona', { product_id: product.id });

    expect(await importLines(store, workspaceId, [persona.line, product.line])).toMatchObject({ inserted: 2 });
    expect((await store.iq.get(workspaceId, persona.id))?.productId).toBe(product.id);
  });

  it('when metadata does not have the shape of its kind, rejects the file naming the field', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const error = await importLines(store, workspaceId, [iqRecordLine('voice', { metadata: IQ_METADATA.persona }).line]).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^line 1: metadata/);
    expect(await valueOf(store, 'SELECT count(*) FROM iq_records WHERE workspace_id = ?', [workspaceId])).toBe(0);
  });

  it('when product_id refers to a persona, or is set on a product, rejects the file', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const persona = iqRecordLine('persona');
    await importLines(store, workspaceId, [persona.line]);
    await expectImportRejected(store, workspaceId, [iqRecordLine('voice', { product_id: persona.id }).line], 'line 1: product_id: refers to a persona record, not a product');
    await expectImportRejected(store, workspaceId, [iqRecordLine('product', { product_id: randomUUID() }).line], 'line 1: product_id: must be null on a product');
  });

  it('when a content type is longest below its shortest length, rejects the file', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    await expectImportRejected(store, workspaceId, [
      iqRecordLine('content_type', { metadata: { ...IQ_METADATA.content_type, word_count_min: 2000, word_count_max: 800 } }).line,
    ], 'line 1: metadata.word_count_max: may not be below word_count_min (2000)');
  });
});
