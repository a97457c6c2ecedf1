import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestWorkspace } from '../../support/accounts.js';
import { IQ_METADATA, iqRecordLine } from '../../support/content-records.js';
import { importRecords } from '../../support/visibility.js';
import type { OperationScenario, ScenarioContext } from './types.js';
import { invalidNaming, lastPage, notFoundOf, success } from './read-expectations.js';

// The five brand-intelligence collections: the same scenario shape for each kind.
const COLLECTIONS = [
  { list: 'listProducts', get: 'getProduct', path: '/api/v1/iq/products', kind: 'product', what: 'Product' },
  { list: 'listPersonas', get: 'getPersona', path: '/api/v1/iq/personas', kind: 'persona', what: 'Persona' },
  { list: 'listBrandVoices', get: 'getBrandVoice', path: '/api/v1/iq/brand-voice', kind: 'voice', what: 'Brand voice' },
  { list: 'listContentTypes', get: 'getContentType', path: '/api/v1/iq/content-types', kind: 'content_type', what: 'Content type' },
  { list: 'listVisualGuidelines', get: 'getVisualGuideline', path: '/api/v1/iq/visual-guidelines', kind: 'visual_guideline', what: 'Visual guideline' },
] as const;

/** One READY default record of `kind` in `workspace`, and its API view. */
async function seedRecord(ctx: ScenarioContext, workspace: TestWorkspace, kind: string) {
  const record = iqRecordLine(kind, { is_default: true });
  await importRecords(ctx.store, workspace, [record]);
  return {
    id: record.id,
    type: kind,
    title: `Acme ${kind.replace('_', ' ')}`,
    description: `The ${kind.replace('_', ' ')} of Acme.`,
    content: `## Acme ${kind}\n\nAnalysis.`,
    metadata: IQ_METADATA[kind],
    productId: null,
    productUrls: null,
    voiceSampleUrls: null,
    contentSampleUrls: null,
    isDefault: true,
    stage: 'READY',
    imagesUrls: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    updatedAt: '2026-03-01T10:00:00.000Z',
  };
}

const seeded = new WeakMap<ScenarioContext, Map<string, Awaited<ReturnType<typeof seedRecord>>>>();
async function recordOf(ctx: ScenarioContext, kind: string) {
  let byKind = seeded.get(ctx);
  if (!byKind) seeded.set(ctx, (byKind = new Map()));
  let record = byKind.get(kind);
  if (!record) byKind.set(kind, (record = await seedRecord(ctx, ctx.workspace, kind)));
  return record;
}

export const iqScenarios: OperationScenario[] = COLLECTIONS.flatMap(({ list, get, path, kind, what }): OperationScenario[] => [
  {
    operationId: list,
    statuses: {
      200: async (ctx) => {
        await recordOf(ctx, kind);
        return { path, query: { stage: 'READY' } };
      },
      422: {
        'stage is not a brand-intelligence stage': () => ({ path, query: { stage: 'COMPLETED' } }),
        'limit is not an integer': () => ({ path, query: { limit: 'ten' } }),
      },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(lastPage([await recordOf(ctx, kind)])),
      422: invalidNaming(/query\.(stage|limit)/),
    },
    list: {
      seed: async (ctx, workspace, n) => {
        const records = Array.from({ length: n }, () => iqRecordLine(kind));
        await importRecords(ctx.store, workspace, records);
        return records.map((r) => r.id);
      },
    },
  },
  {
    operationId: get,
    statuses: {
      200: async (ctx) => ({ path: `${path}/${(await recordOf(ctx, kind)).id}` }),
      404: {
        'an unknown id': () => ({ path: `${path}/${randomUUID()}` }),
        'a record of another kind': async (ctx) => ({ path: `${path}/${(await recordOf(ctx, kind === 'persona' ? 'voice' : 'persona')).id}` }),
      },
      422: { 'the id is not a UUID': () => ({ path: `${path}/default` }) },
    },
    expect: {
      200: async (res, ctx) => expect(res.body).toEqual(success(await recordOf(ctx, kind))),
      404: notFoundOf(what),
      422: invalidNaming(/path\.|must match format/),
    },
    crossTenant: async (ctx) => ({ path: `${path}/${(await seedRecord(ctx, ctx.other, kind)).id}` }),
  },
]);
