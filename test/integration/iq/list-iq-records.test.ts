import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { IQ_METADATA, iqRecordLine, minutesFrom } from '../../support/content-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { expectStablePaging } from '../../contract/framework/paging.js';

const server = useTestServer();

// The five collections read one record table by kind: each must list its own kind only. One
// handler serves them, so one table-driven file tests them, naming each by its operation id.
const COLLECTIONS = [
  { operation: 'listProducts', path: '/api/v1/iq/products', kind: 'product' },
  { operation: 'listPersonas', path: '/api/v1/iq/personas', kind: 'persona' },
  { operation: 'listBrandVoices', path: '/api/v1/iq/brand-voice', kind: 'voice' },
  { operation: 'listContentTypes', path: '/api/v1/iq/content-types', kind: 'content_type' },
  { operation: 'listVisualGuidelines', path: '/api/v1/iq/visual-guidelines', kind: 'visual_guideline' },
] as const;
const KINDS = COLLECTIONS.map((c) => c.kind);

for (const { operation, path, kind } of COLLECTIONS) {
  describe(`GET ${path} (${operation})`, () => {
    it(`when the workspace has records of every kind, answers 200 with its ${kind} records only, oldest first`, async () => {
      const ws = await createTestWorkspace(server.store);
      const times = minutesFrom('2026-03-01T10:00:00.000Z', 2);
      // Records of the other kinds; the product among them is the one the others belong to.
      const others = KINDS.filter((k) => k !== kind).map((k) => iqRecordLine(k));
      const product = others.find((r) => r.record.kind === 'product');
      const newer = iqRecordLine(kind, { stage: 'PROCESSING', created_at: times[1], updated_at: '2026-03-02T00:00:00.000Z' });
      const older = iqRecordLine(kind, {
        is_default: true,
        product_id: product?.id ?? null,
        product_urls: kind === 'product' ? ['https://www.acme.example/product'] : null,
        voice_sample_urls: kind === 'voice' ? ['https://www.acme.example/blog/a'] : null,
        content_sample_urls: kind === 'content_type' ? ['https://www.acme.example/blog/b'] : null,
        images_urls: kind === 'visual_guideline' ? ['https://cdn.acme.example/palette.png'] : null,
        created_at: times[0],
      });
      await importRecords(server.store, ws, [newer, older, ...others]);

      const res = await getWith(server, ws, path);

      const label = kind.replace('_', ' ');
      expect([res.status, res.body]).toEqual([200, {
        code: 2000,
        messages: 'OK',
        data: {
          items: [
            {
              id: older.id,
              type: kind,
              title: `Acme ${label}`,
              description: `The ${label} of Acme.`,
              content: `## Acme ${kind}\n\nAnalysis.`,
              metadata: IQ_METADATA[kind],
              productId: product?.id ?? null,
              productUrls: kind === 'product' ? ['https://www.acme.example/product'] : null,
              voiceSampleUrls: kind === 'voice' ? ['https://www.acme.example/blog/a'] : null,
              contentSampleUrls: kind === 'content_type' ? ['https://www.acme.example/blog/b'] : null,
              isDefault: true,
              stage: 'READY',
              imagesUrls: kind === 'visual_guideline' ? ['https://cdn.acme.example/palette.png'] : null,
              createdAt: times[0],
              updatedAt: times[0],
            },
            expect.objectContaining({ id: newer.id, type: kind, isDefault: false, stage: 'PROCESSING', createdAt: times[1], updatedAt: '2026-03-02T00:00:00.000Z' }),
          ],
          next_cursor: null,
        },
      }]);
    });

    it('when stage is given, answers only the records in that stage', async () => {
      const ws = await createTestWorkspace(server.store);
      const ready = iqRecordLine(kind, { stage: 'READY' });
      await importRecords(server.store, ws, [ready, iqRecordLine(kind, { stage: 'PROCESSING' })]);

      const res = await getWith(server, ws, path, { stage: 'READY' });

      expect((res.body as { data: { items: Array<{ id: string }> } }).data.items.map((r) => r.id)).toEqual([ready.id]);
    });

    it('when paged with limit 1, 2 and 3, answers every record once in one order and refuses tampered or foreign cursors', async () => {
      const ws = await createTestWorkspace(server.store);
      const other = await createTestWorkspace(server.store);
      const records = Array.from({ length: 4 }, () => iqRecordLine(kind));
      await importRecords(server.store, ws, [...records, iqRecordLine(kind === 'persona' ? 'voice' : 'persona')]);
      await importRecords(server.store, other, [iqRecordLine(kind), iqRecordLine(kind)]);

      await expectStablePaging({
        call: (spec) => send(server.url, spec, ws.key),
        request: { path },
        ids: records.map((r) => r.id),
        foreign: { path, key: other.key },
      });
    });
  });
}

describe('GET /api/v1/iq/personas', () => {
  it('when a cursor of the products list is used, answers 422 naming cursor', async () => {
    const ws = await createTestWorkspace(server.store);
    await importRecords(server.store, ws, [iqRecordLine('product'), iqRecordLine('product'), iqRecordLine('persona'), iqRecordLine('persona')]);
    const products = await getWith(server, ws, '/api/v1/iq/products', { limit: 1 });
    const cursor = (products.body as { data: { next_cursor: string } }).data.next_cursor;

    const res = await getWith(server, ws, '/api/v1/iq/personas', { limit: 1, cursor });

    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
    expect((res.body as { messages: string }).messages).toContain('cursor');
  });
});
