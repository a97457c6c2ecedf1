import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { send } from '../../support/http.js';
import { categoryLine, promptLine, snapshotLine } from '../../support/import-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { expectStablePaging, walkList } from '../../contract/framework/paging.js';

const NOW = new Date('2026-11-22T18:00:00.000Z');

const server = useTestServer({ now: () => NOW });

interface ListBody {
  code: number;
  data: { items: Array<Record<string, unknown> & { id: string; text: string }>; next_cursor: string | null };
}

async function list(ws: TestWorkspace, query: Record<string, string | number> = {}) {
  const res = await getWith(server, ws, '/api/v1/visibility/prompts', query);
  return { status: res.status, body: res.body as ListBody };
}

async function texts(ws: TestWorkspace, query: Record<string, string | number> = {}): Promise<string[]> {
  const { status, body } = await list(ws, { limit: 100, ...query });
  expect(status).toBe(200);
  return body.data.items.map((p) => p.text);
}

/** A workspace with two categories and five prompts of every status, created in this order. */
async function catalogue() {
  const ws = await createTestWorkspace(server.store);
  const pricing = categoryLine({ name: 'Pricing', color: '#f59e0b' });
  const guides = categoryLine({ name: 'Buying guides', color: '#4f46e5' });
  const prompts = [
    promptLine({ text: 'Best CRM for startups', category_id: guides.id, status: 'ACTIVE', created_at: '2026-09-01T08:00:00.000Z' }),
    promptLine({ text: 'How much does a crm cost?', category_id: pricing.id, status: 'ACTIVE', created_at: '2026-09-02T08:00:00.000Z' }),
    promptLine({ text: 'Is 100% uptime_possible for a CRM?', category_id: null, status: 'PENDING', created_at: '2026-09-03T08:00:00.000Z' }),
    promptLine({ text: 'Meilleur logiciel CRM pour un CAFÉ', category_id: guides.id, status: 'GENERATING', created_at: '2026-09-04T08:00:00.000Z' }),
    promptLine({ text: 'Cheapest email marketing tool', category_id: pricing.id, status: 'ACTIVE', created_at: '2026-09-05T08:00:00.000Z' }),
  ];
  await importRecords(server.store, ws, [pricing, guides, ...prompts]);
  return { ws, pricing, guides, prompts };
}

describe('GET /api/v1/visibility/prompts', () => {
  it('answers every prompt of the workspace in creation order, with its category and its rates over the range', async () => {
    const ws = await createTestWorkspace(server.store);
    const category = categoryLine({ name: 'Buying guides', color: '#4f46e5' });
    const tracked = promptLine({ text: 'Best CRM for startups', category_id: category.id, created_at: '2026-09-01T10:00:00+02:00' });
    const fresh = promptLine({ text: 'Which CRM integrates with Gmail?', status: 'PENDING', created_at: '2026-11-21T16:30:00.000Z' });
    const at = (iso: string, mentioned: boolean, cited: boolean) =>
      snapshotLine({ prompt_id: tracked.id, collected_at: iso, platform: 'perplexity', mentioned, cited });
    await importRecords(server.store, ws, [
      fresh, tracked, category,
      // current 7d period (2026-11-16 … 22): 3 snapshots, 2 mentioned, 1 cited
      at('2026-11-16T00:00:00.000Z', true, true), at('2026-11-20T09:00:00.000Z', true, false), at('2026-11-22T07:42:10.512Z', false, false),
      // previous 7d period (2026-11-09 … 15): 2 snapshots, 1 mentioned, 1 cited
      at('2026-11-09T00:00:00.000Z', true, true), at('2026-11-15T23:59:59.999Z', false, false),
      // in the 30d period only
      at('2026-10-30T12:00:00.000Z', true, true),
    ]);

    const res = await list(ws, { range: '7d' });

    expect([res.status, res.body]).toEqual([200, {
      code: 2000,
      messages: 'OK',
      data: {
        items: [
          {
            id: tracked.id,
            text: 'Best CRM for startups',
            category_id: category.id,
            category: { id: category.id, name: 'Buying guides', color: '#4f46e5' },
            mention_rate: 0.6667,
            mention_rate_delta: 0.1667,
            citation_rate: 0.3333,
            citation_rate_delta: -0.1667,
            last_collected_at: '2026-11-22T07:42:10.512Z',
            status: 'ACTIVE',
            created_at: '2026-09-01T08:00:00.000Z',
            updated_at: '2026-09-01T08:00:00.000Z',
            mention_counts: { current: { hits: 2, total: 3 }, previous: { hits: 1, total: 2 } },
            citation_counts: { current: { hits: 1, total: 3 }, previous: { hits: 1, total: 2 } },
            // Fisher over 5 snapshots: the observed tables are the likeliest ones (weights 3, 6, 1 and
            // 1, 6, 3 of C(5,3) = 10, observed 6), so p = 1.
            mention_significance: { p_value: 1, significant: false },
            citation_significance: { p_value: 1, significant: false },
          },
          {
            id: fresh.id,
            text: 'Which CRM integrates with Gmail?',
            category_id: null,
            category: null,
            mention_rate: null,
            mention_rate_delta: null,
            citation_rate: null,
            citation_rate_delta: null,
            last_collected_at: null,
            status: 'PENDING',
            created_at: '2026-11-21T16:30:00.000Z',
            updated_at: '2026-11-21T16:30:00.000Z',
            mention_counts: { current: { hits: 0, total: 0 }, previous: { hits: 0, total: 0 } },
            citation_counts: { current: { hits: 0, total: 0 }, previous: { hits: 0, total: 0 } },
            mention_significance: null,
            citation_significance: null,
          },
        ],
        next_cursor: null,
      },
    }]);

    // 30d (the default): current 2026-10-24 … 11-22 holds all 6 snapshots; the previous period none.
    const thirty = await list(ws);
    expect(thirty.body.data.items[0]).toMatchObject({
      mention_rate: 0.6667, mention_rate_delta: null, citation_rate: 0.5, citation_rate_delta: null,
      mention_counts: { current: { hits: 4, total: 6 }, previous: { hits: 0, total: 0 } },
      mention_significance: null, citation_significance: null,
    });
    expect((await list(ws, { range: '90d' })).body.data.items[0]).toMatchObject({ mention_rate: 0.6667, citation_rate: 0.5 });
  });

  it('gives each prompt the counts behind its rates and whether each change is significant at alpha, which may change between pages', async () => {
    const ws = await createTestWorkspace(server.store);
    const rising = promptLine({ text: 'Rising', created_at: '2026-09-01T08:00:00.000Z' });
    const steady = promptLine({ text: 'Steady', created_at: '2026-09-02T08:00:00.000Z' });
    const four = (promptId: string, day: string, mentioned: (i: number) => boolean) => [0, 1, 2, 3].map((i) =>
      snapshotLine({ prompt_id: promptId, collected_at: `${day}T0${i}:00:00.000Z`, platform: 'gemini', mentioned: mentioned(i), cited: false }));
    await importRecords(server.store, ws, [
      rising, steady,
      ...four(rising.id, '2026-11-20', () => true), ...four(rising.id, '2026-11-10', () => false),
      ...four(steady.id, '2026-11-20', (i) => i < 3), ...four(steady.id, '2026-11-10', () => false),
    ]);
    // Fisher over 8 snapshots (C(8,4) = 70 tables): 4 of 4 against 0 of 4 → p = 2/70 = 0.0286;
    // 3 of 4 against 0 of 4 → p = 10/70 = 0.1429. No citations: p = 1.
    const picked = (items: ListBody['data']['items']) => items.map((p) => [p.text, p.mention_counts, p.mention_significance, p.citation_significance]);
    const counts = (current: number, previous: number) => ({ current: { hits: current, total: 4 }, previous: { hits: previous, total: 4 } });

    const byDefault = await list(ws, { range: '7d' });
    expect(picked(byDefault.body.data.items)).toEqual([
      ['Rising', counts(4, 0), { p_value: 0.0286, significant: true }, { p_value: 1, significant: false }],
      ['Steady', counts(3, 0), { p_value: 0.1429, significant: false }, { p_value: 1, significant: false }],
    ]);
    expect(byDefault.body.data.items.map((p) => p.citation_counts)).toEqual([counts(0, 0), counts(0, 0)]);

    const first = await list(ws, { range: '7d', alpha: 0.01, limit: 1 });
    expect(picked(first.body.data.items)).toEqual([['Rising', counts(4, 0), { p_value: 0.0286, significant: false }, { p_value: 1, significant: false }]]);
    const second = await list(ws, { range: '7d', alpha: 0.2, limit: 1, cursor: first.body.data.next_cursor! });
    expect([second.status, picked(second.body.data.items)]).toEqual([200, [['Steady', counts(3, 0), { p_value: 0.1429, significant: true }, { p_value: 1, significant: false }]]]);
  });

  it('shows each prompt exactly as the analytics endpoint embeds it, for the same range', async () => {
    const ws = await createTestWorkspace(server.store);
    const prompt = promptLine();
    await importRecords(server.store, ws, [
      prompt,
      snapshotLine({ prompt_id: prompt.id, collected_at: '2026-11-01T00:00:00.000Z', mentioned: true, cited: false }),
      snapshotLine({ prompt_id: prompt.id, collected_at: '2026-10-01T00:00:00.000Z', mentioned: false, cited: true }),
      snapshotLine({ prompt_id: prompt.id, collected_at: '2026-10-01T01:00:00.000Z', mentioned: true, cited: true }),
    ]);
    for (const range of ['7d', '30d', '90d']) {
      const item = (await list(ws, { range })).body.data.items[0];
      const embedded = ((await getWith(server, ws, `/api/v1/visibility/prompts/${prompt.id}`, { range })).body as { data: { overview: { prompt: unknown } } }).data.overview.prompt;
      expect(item).toEqual(embedded);
    }
  });

  it('filters by status, category and text, combined', async () => {
    const { ws, pricing, guides } = await catalogue();

    expect(await texts(ws, { status: 'ACTIVE' })).toEqual(['Best CRM for startups', 'How much does a crm cost?', 'Cheapest email marketing tool']);
    expect(await texts(ws, { status: 'PENDING' })).toEqual(['Is 100% uptime_possible for a CRM?']);
    expect(await texts(ws, { category_id: pricing.id })).toEqual(['How much does a crm cost?', 'Cheapest email marketing tool']);
    expect(await texts(ws, { category_id: guides.id, status: 'GENERATING' })).toEqual(['Meilleur logiciel CRM pour un CAFÉ']);
    expect(await texts(ws, { q: 'crm', category_id: pricing.id })).toEqual(['How much does a crm cost?']);
  });

  it('matches q as a case-insensitive literal substring, Unicode included', async () => {
    const { ws } = await catalogue();

    expect(await texts(ws, { q: 'CRM' })).toEqual([
      'Best CRM for startups', 'How much does a crm cost?', 'Is 100% uptime_possible for a CRM?', 'Meilleur logiciel CRM pour un CAFÉ',
    ]);
    expect(await texts(ws, { q: 'café' })).toEqual(['Meilleur logiciel CRM pour un CAFÉ']);
    expect(await texts(ws, { q: 'crm for' })).toEqual(['Best CRM for startups']);
    expect(await texts(ws, { q: '100%' })).toEqual(['Is 100% uptime_possible for a CRM?']);
    expect(await texts(ws, { q: '%' })).toEqual(['Is 100% uptime_possible for a CRM?']);
    expect(await texts(ws, { q: 'e_p' })).toEqual(['Is 100% uptime_possible for a CRM?']);
    expect(await texts(ws, { q: 'c_m' })).toEqual([]);
  });

  it('when nothing matches, answers an empty page with a null cursor', async () => {
    const { ws } = await catalogue();
    const unknownCategory = '0b6d1f8e-2b8a-4a39-9c1e-6a3f5d2e1c00';

    for (const query of [{ category_id: unknownCategory }, { q: 'nothing like this' }] as Array<Record<string, string>>) {
      const res = await list(ws, query);
      expect([res.status, res.body]).toEqual([200, { code: 2000, messages: 'OK', data: { items: [], next_cursor: null } }]);
    }
  });

  it('pages with limit 1, 2 and 3 through every prompt exactly once, ties on created_at broken by id', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    // Three prompts share a creation time: their order is by id.
    const created = ['2026-09-01T08:00:00.000Z', '2026-09-01T08:00:00.000Z', '2026-09-01T08:00:00.000Z', '2026-08-01T00:00:00.000Z', '2026-10-01T00:00:00.000Z'];
    const mine = created.map((created_at, i) => promptLine({ text: `Prompt ${i}`, created_at }));
    await importRecords(server.store, ws, mine);
    await importRecords(server.store, other, [promptLine(), promptLine()]);
    const call = (spec: Parameters<typeof send>[1]) => send(server.url, spec, ws.key);

    await expectStablePaging({
      call,
      request: { path: '/api/v1/visibility/prompts' },
      ids: mine.map((p) => p.id),
      foreign: { path: '/api/v1/visibility/prompts', key: other.key },
    });
    const tied = mine.slice(0, 3).map((p) => p.id).sort();
    expect(await walkList({ call, request: { path: '/api/v1/visibility/prompts' }, ids: [] }, 2)).toEqual([mine[3]!.id, ...tied, mine[4]!.id]);
  });

  it('when a filtered list is paged, keeps the filter, and refuses a cursor sent with other filters', async () => {
    const { ws } = await catalogue();
    const first = await list(ws, { q: 'crm', limit: 2 });
    expect(first.body.data.items.map((p) => p.text)).toEqual(['Best CRM for startups', 'How much does a crm cost?']);
    const cursor = first.body.data.next_cursor!;

    const second = await list(ws, { q: 'crm', limit: 2, cursor, range: '90d' });
    expect(second.body.data).toEqual({ items: [expect.objectContaining({ text: 'Is 100% uptime_possible for a CRM?' }), expect.objectContaining({ text: 'Meilleur logiciel CRM pour un CAFÉ' })], next_cursor: null });

    // q is case-insensitive: the same list, the same cursor.
    expect((await list(ws, { q: 'CRM', limit: 2, cursor })).body.data).toEqual(second.body.data);
    for (const query of [{ q: 'crm ', cursor }, { cursor }, { q: 'crm', status: 'ACTIVE', cursor }] as Array<Record<string, string>>) {
      const res = await list(ws, query);
      expect([res.status, res.body.code]).toEqual([422, 4220]);
      expect((res.body as unknown as { messages: string }).messages).toContain('query.cursor');
    }
  });

  it('never lists a prompt of another workspace', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const mine = promptLine({ text: 'Mine' });
    await importRecords(server.store, ws, [mine]);
    await importRecords(server.store, other, [promptLine({ text: 'Mine too?' }), promptLine({ text: 'Theirs' })]);

    expect(await texts(ws)).toEqual(['Mine']);
    expect(await texts(ws, { q: 'Theirs' })).toEqual([]);
  });

  it.each([
    ['limit=0', { limit: 0 }, 'limit'],
    ['limit=101', { limit: 101 }, 'limit'],
    ['limit=abc', { limit: 'abc' }, 'limit'],
    ['range=14d', { range: '14d' }, 'range'],
    ['status=DONE', { status: 'DONE' }, 'status'],
    ['a malformed category_id', { category_id: 'pricing' }, 'category_id'],
    ['an empty q', { q: '' }, 'q'],
    ['a cursor that is not one', { cursor: 'eyJ9.abc' }, 'cursor'],
    ['alpha=0', { alpha: 0 }, 'alpha'],
    ['alpha=1', { alpha: 1 }, 'alpha'],
    ['alpha=high', { alpha: 'high' }, 'alpha'],
  ])('when given %s, answers 422 naming the parameter for people and for programs', async (_what, query, named) => {
    const ws = await createTestWorkspace(server.store);
    const res = await getWith(server, ws, '/api/v1/visibility/prompts', query);
    expect([res.status, (res.body as { code: number }).code]).toEqual([422, 4220]);
    expect((res.body as { messages: string }).messages).toContain(`query.${named}`);
    const { errors } = (res.body as { data: { errors: unknown[] } }).data;
    expect(errors.length).toBeGreaterThan(0);
    expect(errors).toEqual(errors.map(() => ({ in: 'query', name: named, message: expect.any(String) })));
  });
});
