import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace } from '../../support/accounts.js';
import { IQ_METADATA, iqRecordLine } from '../../support/content-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';

const server = useTestServer();

// One handler serves the five by-id reads over one record table, so one table-driven file tests
// them, naming each by its operation id.
const COLLECTIONS = [
  { operation: 'getProduct', path: '/api/v1/iq/products', kind: 'product', what: 'Product' },
  { operation: 'getPersona', path: '/api/v1/iq/personas', kind: 'persona', what: 'Persona' },
  { operation: 'getBrandVoice', path: '/api/v1/iq/brand-voice', kind: 'voice', what: 'Brand voice' },
  { operation: 'getContentType', path: '/api/v1/iq/content-types', kind: 'content_type', what: 'Content type' },
  { operation: 'getVisualGuideline', path: '/api/v1/iq/visual-guidelines', kind: 'visual_guideline', what: 'Visual guideline' },
] as const;

for (const { operation, path, kind, what } of COLLECTIONS) {
  describe(`GET ${path}/{id} (${operation})`, () => {
    it(`when the ${kind} record belongs to the workspace, answers 200 with the whole record`, async () => {
      const ws = await createTestWorkspace(server.store);
      const record = iqRecordLine(kind, { description: null, content: null, stage: 'PROCESSING' });
      await importRecords(server.store, ws, [record]);

      const res = await getWith(server, ws, `${path}/${record.id}`);

      expect([res.status, res.body]).toEqual([200, {
        code: 2000,
        messages: 'OK',
        data: {
          id: record.id,
          type: kind,
          title: `Acme ${kind.replace('_', ' ')}`,
          description: null,
          content: null,
          metadata: IQ_METADATA[kind],
          productId: null,
          productUrls: null,
          voiceSampleUrls: null,
          contentSampleUrls: null,
          isDefault: false,
          stage: 'PROCESSING',
          imagesUrls: null,
          createdAt: '2026-03-01T10:00:00.000Z',
          updatedAt: '2026-03-01T10:00:00.000Z',
        },
      }]);
    });

    it('when the record belongs to another workspace, or is of another kind, answers 404 exactly like an unknown id', async () => {
      const ws = await createTestWorkspace(server.store);
      const other = await createTestWorkspace(server.store);
      const foreign = iqRecordLine(kind);
      const otherKind = iqRecordLine(kind === 'persona' ? 'product' : 'persona');
      await importRecords(server.store, other, [foreign]);
      await importRecords(server.store, ws, [otherKind]);

      const expected = [404, { code: 4040, messages: `${what} not found.`, data: null }];
      for (const id of [foreign.id, otherKind.id, randomUUID()]) {
        const res = await getWith(server, ws, `${path}/${id}`);
        expect([res.status, res.body]).toEqual(expected);
      }
    });
  });
}
