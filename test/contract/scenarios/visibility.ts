import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { TestWorkspace } from '../../support/accounts.js';
import { competitorLine, promptLine, snapshotLine } from '../../support/import-records.js';
import { EMPTY_PLATFORMS, importRecords } from '../../support/visibility.js';
import { profileLine } from '../../support/workspace-records.js';
import type { ObservedResponse } from '../../support/http.js';
import { expectFieldNamed } from '../framework/field-errors.js';
import type { OperationScenario, ScenarioContext } from './types.js';

const V = '/api/v1/visibility';

/**
 * A profile, one competitor and one prompt with two answers collected at the context's time (in
 * the current period of every range): one on ChatGPT that mentions the brand, names the
 * competitor and cites an own page; one on Claude that does none of it. The import runs at the
 * context's time too, which every answer carries as `updated_at`.
 */
async function seed(ctx: ScenarioContext, workspace: TestWorkspace) {
  const competitor = competitorLine({ name: 'Globex', domain: 'globex.example' });
  const prompt = promptLine({ text: 'Best CRM for a small business?' });
  const at = ctx.now.toISOString();
  const cited = snapshotLine({
    prompt_id: prompt.id, collected_at: at, platform: 'chatgpt', mentioned: true, cited: true, competitors: ['Globex'],
    citations: [{ url: 'https://acme.example/pricing', title: 'Acme pricing' }], answer: 'Acme, then Globex.',
  });
  const plain = snapshotLine({ prompt_id: prompt.id, collected_at: at, platform: 'claude', mentioned: false, cited: false, answer: 'Try a spreadsheet.' });
  await importRecords(ctx.store, workspace, [
    profileLine({ brand_name: 'Acme', domains: ['acme.example'], tracked_platforms: ['chatgpt', 'claude'], collection_cadence: 'daily' }),
    competitor, prompt, cited, plain,
  ], { now: () => ctx.now });
  return { competitor, prompt, cited, plain, at, date: at.slice(0, 10) };
}

const seeded = new WeakMap<ScenarioContext, Awaited<ReturnType<typeof seed>>>();
async function seedOf(ctx: ScenarioContext) {
  let s = seeded.get(ctx);
  if (!s) seeded.set(ctx, (s = await seed(ctx, ctx.workspace)));
  return s;
}

/** The answer objects the seeded snapshots become. */
function answers(s: Awaited<ReturnType<typeof seed>>) {
  const prompt = { id: s.prompt.id, text: 'Best CRM for a small business?' };
  return {
    cited: {
      id: s.cited.id, prompt, platform: 'chatgpt', collected_at: s.at, mentioned: true, cited: true, competitors: ['Globex'],
      citations: [{ url: 'https://acme.example/pricing', title: 'Acme pricing', domain: 'acme.example', is_own: true }],
      text: 'Acme, then Globex.', updated_at: s.at,
    },
    plain: {
      id: s.plain.id, prompt, platform: 'claude', collected_at: s.at, mentioned: false, cited: false, competitors: [], citations: [],
      text: 'Try a spreadsheet.', updated_at: s.at,
    },
  };
}

/** `n` answers of one new prompt, a second apart, each citing its own page. */
async function seedAnswers(ctx: ScenarioContext, workspace: TestWorkspace, n: number) {
  const prompt = promptLine();
  const base = ctx.now.getTime() - 60_000;
  const lines = Array.from({ length: n }, (_, i) => snapshotLine({
    prompt_id: prompt.id, collected_at: new Date(base - (i % 3) * 1000).toISOString(),
    citations: [{ url: `https://cited.example/${randomUUID()}`, title: `Page ${i}` }],
  }));
  await importRecords(ctx.store, workspace, [prompt, ...lines]);
  return lines;
}

/** One hit of two snapshots now, none before: the workspace's seeded rates. */
const ONE_OF_TWO = { current: { hits: 1, total: 2 }, previous: { hits: 0, total: 0 } };

const invalid = (res: ObservedResponse) => expectFieldNamed(res, /^(query|path)\./);

export const visibilityScenarios: OperationScenario[] = [
  {
    operationId: 'getVisibilitySetup',
    statuses: {
      200: async (ctx) => {
        await seedOf(ctx);
        return { path: `${V}/setup` };
      },
    },
    expect: {
      200: async (res, ctx) => {
        const s = await seedOf(ctx);
        expect(res.body).toEqual({
          code: 2000,
          messages: 'OK',
          data: {
            brand_name: 'Acme', domains: ['acme.example'], tracked_platforms: ['chatgpt', 'claude'], collection_cadence: 'daily',
            competitor_count: 1, prompt_counts: { total: 1, pending: 0, generating: 0, active: 1 }, last_collected_at: s.at,
          },
        });
      },
    },
  },
  {
    operationId: 'getVisibilityRates',
    statuses: {
      200: async (ctx) => {
        await seedOf(ctx);
        return { path: `${V}/rates`, query: { range: '7d' } };
      },
      422: {
        'range is 14d': () => ({ path: `${V}/rates`, query: { range: '14d' } }),
        'alpha is 1.5': () => ({ path: `${V}/rates`, query: { alpha: 1.5 } }),
      },
    },
    expect: {
      200: async (res, ctx) => {
        const { date } = await seedOf(ctx);
        expect(res.body).toEqual({
          code: 2000,
          messages: 'OK',
          data: {
            range: '7d',
            mention_rate: { current: 0.5, previous: null, delta: null, counts: ONE_OF_TWO, significance: null },
            citation_rate: { current: 0.5, previous: null, delta: null, counts: ONE_OF_TWO, significance: null },
            trend_series: { mention: [{ date, rate: 0.5 }], citation: [{ date, rate: 0.5 }] },
            platforms: [
              { platform: 'chatgpt', total: 1, mentioned: { count: 1, rate: 1 }, cited: { count: 1, rate: 1 } },
              ...EMPTY_PLATFORMS.slice(1, 5),
              { platform: 'claude', total: 1, mentioned: { count: 0, rate: 0 }, cited: { count: 0, rate: 0 } },
            ],
            total_snapshots: 2,
          },
        });
      },
      422: invalid,
    },
  },
  {
    operationId: 'getVisibilityCompetitors',
    statuses: {
      200: async (ctx) => {
        await seedOf(ctx);
        return { path: `${V}/competitors`, query: { range: '7d' } };
      },
      422: { 'range is 14d': () => ({ path: `${V}/competitors`, query: { range: '14d' } }) },
    },
    expect: {
      200: async (res, ctx) => {
        const { competitor } = await seedOf(ctx);
        expect(res.body).toEqual({
          code: 2000,
          messages: 'OK',
          data: {
            range: '7d',
            total_snapshots: 2,
            competitors: [
              {
                id: null, name: 'Acme', domain: 'acme.example', is_brand: true, mentions: 1,
                mention_rate: 0.5, mention_rate_delta: null, share_of_voice: 0.5, share_of_voice_delta: null,
              },
              {
                id: competitor.id, name: 'Globex', domain: 'globex.example', is_brand: false, mentions: 1,
                mention_rate: 0.5, mention_rate_delta: null, share_of_voice: 0.5, share_of_voice_delta: null,
              },
            ],
          },
        });
      },
      422: invalid,
    },
  },
  {
    operationId: 'listCitedPages',
    statuses: {
      200: async (ctx) => {
        await seedOf(ctx);
        return { path: `${V}/cited-pages`, query: { range: '7d' } };
      },
      422: {
        'platform is bing': () => ({ path: `${V}/cited-pages`, query: { platform: 'bing' } }),
        'content_map_page is not a UUID': () => ({ path: `${V}/cited-pages`, query: { content_map_page: 'pricing' } }),
        'limit is 0': () => ({ path: `${V}/cited-pages`, query: { limit: 0 } }),
        'the cursor was altered': () => ({ path: `${V}/cited-pages`, query: { cursor: 'WzEsMiwiYSJd.AAAAAAAAAAAAAAAA' } }),
      },
    },
    expect: {
      200: (res) => {
        expect(res.body).toEqual({
          code: 2000,
          messages: 'OK',
          data: {
            items: [{
              url: 'https://acme.example/pricing', domain: 'acme.example', title: 'Acme pricing', citations: 1, prompts: 1,
              platforms: ['chatgpt'], is_own: true, content_map_page_id: null, topic_id: null,
            }],
            next_cursor: null,
          },
        });
      },
      422: invalid,
    },
    list: {
      seed: async (ctx, workspace, n) => (await seedAnswers(ctx, workspace, n)).map((l) => (l.record.citations as Array<{ url: string }>)[0]!.url),
      itemId: (item) => (item as { url: string }).url,
    },
  },
  {
    operationId: 'listAnswers',
    statuses: {
      200: async (ctx) => {
        await seedOf(ctx);
        return { path: `${V}/answers`, query: { range: '7d', platform: 'chatgpt' } };
      },
      422: {
        'mentioned is yes': () => ({ path: `${V}/answers`, query: { mentioned: 'yes' } }),
        'prompt is not a UUID': () => ({ path: `${V}/answers`, query: { prompt: 'p1' } }),
        'the cursor was altered': () => ({ path: `${V}/answers`, query: { cursor: 'WzEsMiwiYSJd.AAAAAAAAAAAAAAAA' } }),
        'updated_after has no time zone': () => ({ path: `${V}/answers`, query: { updated_after: '2026-02-01T00:00:00' } }),
        'order is created_at, which answers do not have': () => ({ path: `${V}/answers`, query: { order: 'created_at' } }),
      },
    },
    expect: {
      200: async (res, ctx) => {
        expect(res.body).toEqual({ code: 2000, messages: 'OK', data: { items: [answers(await seedOf(ctx)).cited], next_cursor: null } });
      },
      422: invalid,
    },
    list: {
      seed: async (ctx, workspace, n) => (await seedAnswers(ctx, workspace, n)).map((l) => l.id),
    },
  },
  {
    operationId: 'getAnswer',
    statuses: {
      200: async (ctx) => ({ path: `${V}/answers/${(await seedOf(ctx)).plain.id}` }),
      404: () => ({ path: `${V}/answers/${randomUUID()}` }),
      422: { 'the answer id is not a UUID': () => ({ path: `${V}/answers/not-a-uuid` }) },
    },
    expect: {
      200: async (res, ctx) => {
        expect(res.body).toEqual({ code: 2000, messages: 'OK', data: answers(await seedOf(ctx)).plain });
      },
      404: (res) => {
        expect(res.body).toEqual({ code: 4040, messages: 'Answer not found.', data: null });
      },
      422: invalid,
    },
    crossTenant: async (ctx) => ({ path: `${V}/answers/${(await seed(ctx, ctx.other)).cited.id}` }),
  },
  {
    operationId: 'exportAnswers',
    statuses: {
      200: {
        'CSV is asked for': async (ctx) => {
          await seedOf(ctx);
          return { path: `${V}/exports/answers`, query: { range: '7d', format: 'csv' } };
        },
        'no format is given': async (ctx) => {
          await seedOf(ctx);
          return { path: `${V}/exports/answers`, query: { range: '7d' } };
        },
      },
      422: {
        'format is xlsx': () => ({ path: `${V}/exports/answers`, query: { format: 'xlsx' } }),
        'format is ndjson (its own operation)': () => ({ path: `${V}/exports/answers`, query: { format: 'ndjson' } }),
      },
    },
    expect: {
      200: (res) => {
        expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
        expect(res.text.split('\r\n')).toHaveLength(4); // header, two answers, and the final line end
        expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="answers-7d-\d{4}-\d{2}-\d{2}\.csv"$/);
      },
      422: invalid,
    },
  },
  {
    operationId: 'exportAnswersNdjson',
    statuses: {
      200: async (ctx) => {
        await seedOf(ctx);
        return { path: `${V}/exports/answers.ndjson`, query: { range: '7d' } };
      },
      422: { 'format is given': () => ({ path: `${V}/exports/answers.ndjson`, query: { format: 'csv' } }) },
    },
    expect: {
      200: async (res, ctx) => {
        const a = answers(await seedOf(ctx));
        expect(res.headers.get('content-type')).toBe('application/x-ndjson');
        // Same instant: newest first, then id descending.
        const expected = [a.cited, a.plain].sort((x, y) => (x.id < y.id ? 1 : -1));
        expect(res.text.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual(expected);
        expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="answers-7d-\d{4}-\d{2}-\d{2}\.ndjson"$/);
      },
      422: invalid,
    },
  },
  {
    operationId: 'exportDailyRates',
    statuses: {
      200: async (ctx) => {
        await seedOf(ctx);
        return { path: `${V}/exports/daily-rates`, query: { range: '7d' } };
      },
      422: { 'format is xlsx': () => ({ path: `${V}/exports/daily-rates`, query: { format: 'xlsx' } }) },
    },
    expect: {
      200: (res) => {
        expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
        expect(res.text.split('\r\n')).toHaveLength(3); // header, one day, and the final line end
      },
      422: invalid,
    },
  },
  {
    operationId: 'exportDailyRatesNdjson',
    statuses: {
      200: async (ctx) => {
        await seedOf(ctx);
        return { path: `${V}/exports/daily-rates.ndjson`, query: { range: '7d' } };
      },
      422: { 'range is 1y': () => ({ path: `${V}/exports/daily-rates.ndjson`, query: { range: '1y' } }) },
    },
    expect: {
      200: async (res, ctx) => {
        const { date } = await seedOf(ctx);
        expect(res.text).toBe(`${JSON.stringify({ date, snapshots: 2, mentioned: 1, cited: 1, mention_rate: 0.5, citation_rate: 0.5 })}\n`);
      },
      422: invalid,
    },
  },
];
