import { describe, expect, it } from 'vitest';
import { importLines } from '../../src/import/import-ndjson.js';
import type { IqRecordInput, IqRecordType, IqStore } from '../../src/store/interfaces/iq.js';
import { createPostgresIqStore } from '../../src/store/postgres/iq.js';
import { changed, IQ_METADATA, iqRecordLine } from '../support/content-records.js';
import { postgresAvailable } from '../support/postgres.js';
import { expectSamePages, sameForEach, sameFromBoth, type ParityDatabases, type StorePair, useParityDatabases } from '../support/store-parity.js';

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T11:00:00.000Z';
const T2 = '2026-03-02T09:30:00.000Z';
const T3 = '2026-03-05T18:45:00.000Z';
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const UPDATED_AFTER = [null, T0, T1, T2, T3];
const KINDS: IqRecordType[] = ['product', 'persona', 'voice', 'content_type', 'visual_guideline'];

// Two products (the second made the default later), records about a product, every *_urls column
// set or NULL, Unicode and Markdown texts, ties on the creation time.
const productA = iqRecordLine('product', { created_at: T0, is_default: true, product_urls: ['https://acme.example/ü', 'https://acme.example/b'] });
const productB = iqRecordLine('product', { created_at: T0, stage: 'PROCESSING', description: null, content: null });
const productBDefault = changed(productB, { is_default: true, updated_at: T2 });
const records = [
  productA,
  productB,
  iqRecordLine('persona', { created_at: T0, product_id: productA.id, title: 'Ünïcödé persona 🚀' }),
  iqRecordLine('persona', { created_at: T1, product_id: null, stage: 'PROCESSING', updated_at: T3, is_default: true }),
  iqRecordLine('voice', { created_at: T1, voice_sample_urls: ['https://acme.example/voice'], content: '# Voice\n\n"quoted" \\ and\ttab' }),
  iqRecordLine('content_type', { created_at: T2, content_sample_urls: [], is_default: true }),
  iqRecordLine('visual_guideline', { created_at: T3, images_urls: ['https://acme.example/logo.png'], metadata: { ...IQ_METADATA.visual_guideline, image_style: 'flat' } }),
];
const otherProduct = iqRecordLine('product', { created_at: T0, is_default: true });

describe.skipIf(!postgresAvailable())('PostgreSQL brand-intelligence store answers as the SQLite one', () => {
  let pair: StorePair<IqStore>;
  let workspaceId: string;

  const view = (opened: ParityDatabases) => ({
    databases: opened,
    pair: { sqlite: opened.sqlite.iq, postgres: createPostgresIqStore(opened.pool) },
    workspaceId: opened.workspace.workspaceId,
  });
  const ownDatabases = useParityDatabases(async (sqlite, workspace, other) => {
    await importLines(sqlite, workspace.workspaceId, records.map((l) => l.line));
    await importLines(sqlite, workspace.workspaceId, [productBDefault.line]);
    await importLines(sqlite, other.workspaceId, [otherProduct.line]);
  }, (opened) => {
    ({ pair, workspaceId } = view(opened));
  });

  it('reads each record by id, of its kind or any, and nothing of another kind, another workspace or an unknown id', async () => {
    const ids = records.map((l) => l.id);
    const read = await sameForEach(pair, 'record', ids, (s, id) => s.get(workspaceId, id));
    expect(read.map((r) => [r?.type, r?.isDefault])).toEqual([
      ['product', false], ['product', true], ['persona', false], ['persona', true], ['voice', false], ['content_type', true], ['visual_guideline', false],
    ]);
    for (const type of KINDS) await sameForEach(pair, `as ${type}`, [...ids, otherProduct.id, UNKNOWN], (s, id) => s.get(workspaceId, id, type));
    expect(await sameForEach(pair, 'type', [...ids, otherProduct.id, UNKNOWN], (s, id) => s.typeOf(workspaceId, id)))
      .toEqual([...read.map((r) => r?.type), undefined, undefined]);
    expect(await sameForEach(pair, 'stage', [...ids, UNKNOWN], (s, id) => s.stageOf(id)))
      .toEqual([...read.map((r) => r?.stage), undefined]);
  });

  it('lists each kind with each stage, in both orders, from every updated_after bound, page by page', async () => {
    let listed = 0;
    for (const type of KINDS) {
      for (const stage of ['PROCESSING', 'READY'] as const) {
        await expectSamePages(pair, `${type} ${stage}`, (s, page) => s.list({ workspaceId, type, stage }, page), 'camelCase');
      }
      listed += (await expectSamePages(pair, type, (s, page) => s.list({ workspaceId, type }, page), 'camelCase', UPDATED_AFTER)).length;
    }
    expect(listed).toBe(records.length);
  });

  it('saves through its own methods as SQLite does, moving the default flag in the same write', async () => {
    const { databases, pair, workspaceId } = view(await ownDatabases());
    const persona = (id: string, fields: Partial<IqRecordInput> = {}): IqRecordInput => ({
      id, workspace_id: workspaceId, type: 'persona', title: `Saved ${id}`, description: null, content: null, metadata: IQ_METADATA.persona as never,
      product_id: null, product_urls: null, voice_sample_urls: null, content_sample_urls: null, images_urls: null, is_default: false,
      stage: 'PROCESSING', created_at: '2026-04-01T00:00:00.000Z', updated_at: '2026-04-01T00:00:00.000Z', ...fields,
    });
    for (const id of ['é-iq', 'B-iq', 'a-iq']) expect(await sameFromBoth(pair, id, (s) => s.save(persona(id)))).toEqual({ outcome: 'inserted', previous: undefined });
    expect(await sameFromBoth(pair, 'default', (s) => s.save(persona('a-iq', { is_default: true, product_urls: ['https://x.example'] }))))
      .toEqual({ outcome: 'updated', previous: 'PROCESSING' });
    expect(await sameFromBoth(pair, 'same', (s) => s.save(persona('a-iq', { is_default: true, product_urls: ['https://x.example'] }))))
      .toEqual({ outcome: 'unchanged', previous: 'PROCESSING' });
    expect(await sameFromBoth(pair, 'ready', (s) => s.save(persona('B-iq', { is_default: true, stage: 'READY' })))).toEqual({ outcome: 'updated', previous: 'PROCESSING' });
    const personas = await expectSamePages(pair, 'personas', (s, page) => s.list({ workspaceId, type: 'persona' }, page), 'camelCase', [null, T3]);
    expect(personas.map((p) => [p.id.slice(0, 2), p.isDefault]).slice(-3)).toEqual([['B-', true], ['a-', false], ['é-', false]]);
    expect(personas.filter((p) => p.isDefault)).toHaveLength(1);
    // The other kinds kept their defaults.
    const defaults = 'SELECT type FROM iq_records WHERE workspace_id = ? AND is_default = 1 ORDER BY type';
    expect((await databases.pool.query(defaults.replace('?', '$1'), [workspaceId])).rows)
      .toEqual(databases.sqlite.db.prepare(defaults).all(workspaceId));
  });

  it('in PostgreSQL, saves that make records of one kind the default at the same time take turns: all succeed and one default remains', async () => {
    const { pair, workspaceId } = view(await ownDatabases());
    const postgres = pair.postgres;
    const voice = (id: string): IqRecordInput => ({
      id, workspace_id: workspaceId, type: 'voice', title: id, description: null, content: null, metadata: IQ_METADATA.voice as never, product_id: null,
      product_urls: null, voice_sample_urls: null, content_sample_urls: null, images_urls: null, is_default: true, stage: 'READY',
      created_at: '2026-04-02T00:00:00.000Z', updated_at: '2026-04-02T00:00:00.000Z',
    });
    const ids = Array.from({ length: 8 }, (_, i) => `voice-${i}`);
    const results = await Promise.allSettled(ids.map((id) => postgres.save(voice(id))));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const voices = await postgres.list({ workspaceId, type: 'voice' }, { order: 'created_at', updatedAfter: null, limit: 100 });
    expect(voices.filter((v) => v.isDefault)).toHaveLength(1);
  });
});
