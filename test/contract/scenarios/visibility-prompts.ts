import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import type { TestWorkspace } from '../../support/accounts.js';
import { categoryLine, competitorLine, promptLine, snapshotLine } from '../../support/import-records.js';
import { EMPTY_PLATFORMS, importRecords } from '../../support/visibility.js';
import { expectFieldNamed } from '../framework/field-errors.js';
import type { OperationScenario, ScenarioContext } from './types.js';

const PROMPTS = '/api/v1/visibility/prompts';

/**
 * A categorised prompt with two answers collected at the context's time (in the current period of
 * every range) and two tracked competitors, one named once.
 */
async function seedPrompt(store: Store, workspace: TestWorkspace, now: Date) {
  const category = categoryLine({ name: 'Buying guides', color: '#4f46e5' });
  const prompt = promptLine({ text: 'Best CRM for a small business?', category_id: category.id, created_at: '2026-09-01T08:00:00.000Z' });
  const collected = now.toISOString();
  await importRecords(store, workspace, [
    category, prompt,
    competitorLine({ name: 'Pipedrive' }), competitorLine({ name: 'HubSpot' }),
    snapshotLine({ prompt_id: prompt.id, collected_at: collected, platform: 'chatgpt', mentioned: true, cited: true, competitors: ['HubSpot'] }),
    snapshotLine({ prompt_id: prompt.id, collected_at: collected, platform: 'claude', mentioned: false, cited: false }),
  ]);
  return {
    id: prompt.id,
    date: collected.slice(0, 10),
    prompt: {
      id: prompt.id,
      text: 'Best CRM for a small business?',
      category_id: category.id,
      category: { id: category.id, name: 'Buying guides', color: '#4f46e5' },
      mention_rate: 0.5,
      mention_rate_delta: null,
      citation_rate: 0.5,
      citation_rate_delta: null,
      last_collected_at: collected,
      status: 'ACTIVE',
      created_at: '2026-09-01T08:00:00.000Z',
      updated_at: '2026-09-01T08:00:00.000Z',
      mention_counts: ONE_OF_TWO,
      citation_counts: ONE_OF_TWO,
      mention_significance: null,
      citation_significance: null,
    },
  };
}

/** One hit of two snapshots now, none before: the rates of the seeded prompt, with no delta. */
const ONE_OF_TWO = { current: { hits: 1, total: 2 }, previous: { hits: 0, total: 0 } };
const HALF_NOW = { current: 0.5, previous: null, delta: null, counts: ONE_OF_TWO, significance: null };

const seeded = new WeakMap<ScenarioContext, Awaited<ReturnType<typeof seedPrompt>>>();
async function promptOf(ctx: ScenarioContext) {
  let s = seeded.get(ctx);
  if (!s) seeded.set(ctx, (s = await seedPrompt(ctx.store, ctx.workspace, ctx.now)));
  return s;
}

export const visibilityPromptScenarios: OperationScenario[] = [
  {
    operationId: 'listPrompts',
    statuses: {
      200: async (ctx) => {
        await promptOf(ctx);
        return { path: PROMPTS, query: { range: '7d' } };
      },
      422: {
        'range is 14d': () => ({ path: PROMPTS, query: { range: '14d' } }),
        'alpha is 0': () => ({ path: PROMPTS, query: { alpha: 0 } }),
        'limit is 0': () => ({ path: PROMPTS, query: { limit: 0 } }),
        'limit is 101': () => ({ path: PROMPTS, query: { limit: 101 } }),
        'status is not a prompt status': () => ({ path: PROMPTS, query: { status: 'DONE' } }),
        'category_id is not a UUID': () => ({ path: PROMPTS, query: { category_id: 'pricing' } }),
        'the cursor was altered': () => ({ path: PROMPTS, query: { cursor: 'WyIyMDI2LTAxLTAxIiwiYSJd.AAAAAAAAAAAAAAAA' } }),
      },
    },
    expect: {
      200: async (res, ctx) => {
        const { prompt } = await promptOf(ctx);
        expect(res.body).toEqual({ code: 2000, messages: 'OK', data: { items: [prompt], next_cursor: null } });
      },
      422: (res) => expectFieldNamed(res, /^query\.(range|alpha|limit|status|category_id|cursor)$/),
    },
    list: {
      seed: async (ctx, workspace, n) => {
        const prompts = Array.from({ length: n }, (_, i) => promptLine({ text: `Prompt ${i}`, created_at: `2026-09-${String(1 + (i % 3)).padStart(2, '0')}T08:00:00.000Z` }));
        await importRecords(ctx.store, workspace, prompts);
        return prompts.map((p) => p.id);
      },
    },
  },
  {
    operationId: 'getPromptAnalytics',
    statuses: {
      200: async (ctx) => ({ path: `${PROMPTS}/${(await promptOf(ctx)).id}`, query: { range: '7d' } }),
      404: () => ({ path: `${PROMPTS}/${randomUUID()}` }),
      422: {
        'range is 14d': async (ctx) => ({ path: `${PROMPTS}/${(await promptOf(ctx)).id}`, query: { range: '14d' } }),
        'alpha is 1': async (ctx) => ({ path: `${PROMPTS}/${(await promptOf(ctx)).id}`, query: { alpha: 1 } }),
        'the prompt id is not a UUID': () => ({ path: `${PROMPTS}/not-a-uuid` }),
      },
    },
    expect: {
      200: async (res, ctx) => {
        const { prompt, date } = await promptOf(ctx);
        expect(res.body).toEqual({
          code: 2000,
          messages: 'OK',
          data: {
            overview: {
              range: '7d',
              prompt,
              mention_rate: HALF_NOW,
              citation_rate: HALF_NOW,
              trend_series: { mention: [{ date, rate: 0.5 }], citation: [{ date, rate: 0.5 }] },
            },
            platforms: [
              { platform: 'chatgpt', total: 1, mentioned: { count: 1, rate: 1 }, cited: { count: 1, rate: 1 } },
              ...EMPTY_PLATFORMS.slice(1, 5),
              { platform: 'claude', total: 1, mentioned: { count: 0, rate: 0 }, cited: { count: 0, rate: 0 } },
            ],
            competitors: [
              { competitor: 'HubSpot', mentions: 1, mention_rate: 0.5 },
              { competitor: 'Pipedrive', mentions: 0, mention_rate: 0 },
            ],
            total_snapshots: 2,
          },
        });
      },
      404: (res) => {
        expect(res.body).toEqual({ code: 4040, messages: 'Prompt not found.', data: null });
      },
      422: (res) => expectFieldNamed(res, /^(query\.range|query\.alpha|path\.prompt)$/),
    },
    crossTenant: async (ctx) => ({ path: `${PROMPTS}/${(await seedPrompt(ctx.store, ctx.other, ctx.now)).id}` }),
  },
];
