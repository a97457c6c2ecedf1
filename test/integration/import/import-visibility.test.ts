import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importLines } from '../../../src/import/import-ndjson.js';
import type { Store } from '../../../src/store/index.js';
import { createTestStore } from '../../support/test-server.js';
import { createTestWorkspace } from '../../support/accounts.js';
import { categoryLine, competitorLine, promptLine, rollups, snapshotLine } from '../../support/import-records.js';
import { rowsOf, storeContents, valueOf } from '../../support/database-rows.js';

let store: Store;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ store, cleanup } = await createTestStore());
});
afterEach(() => cleanup());

const DAY = 86_400_000;
const day = (iso: string) => Math.floor(Date.parse(iso) / DAY);

/** The rollups as they would be if built from scratch from the snapshots table. */
async function rollupsFromSnapshots(workspaceId: string) {
  // A snapshot's competitors are a JSON array kept as text: each database walks it its own way.
  const competitorsOf = store.kind === 'sqlite' ? 'json_each(s.competitors) c' : 'json_array_elements_text(s.competitors::json) AS c(value)';
  return {
    prompt_day_totals: await rowsOf(store,
        `SELECT prompt_id, day, total, mentioned, cited,
           sum(total) OVER w AS run_total, sum(mentioned) OVER w AS run_mentioned, sum(cited) OVER w AS run_cited
         FROM (SELECT prompt_id, day, count(*) AS total, sum(mentioned) AS mentioned, sum(cited) AS cited
               FROM snapshots WHERE workspace_id = ? GROUP BY prompt_id, day) t
         WINDOW w AS (PARTITION BY prompt_id ORDER BY day) ORDER BY prompt_id, day`,
        [workspaceId],
      ),
    prompt_platform_running: await rowsOf(store,
        `SELECT prompt_id, platform, day,
           sum(total) OVER w AS run_total, sum(mentioned) OVER w AS run_mentioned, sum(cited) OVER w AS run_cited
         FROM (SELECT prompt_id, platform, day, count(*) AS total, sum(mentioned) AS mentioned, sum(cited) AS cited
               FROM snapshots WHERE workspace_id = ? GROUP BY prompt_id, platform, day) t
         WINDOW w AS (PARTITION BY prompt_id, platform ORDER BY day) ORDER BY prompt_id, platform, day`,
        [workspaceId],
      ),
    prompt_competitor_running: await rowsOf(store,
        `SELECT prompt_id, competitor_id, day, sum(mentions) OVER w AS run_mentions
         FROM (SELECT s.prompt_id, c.value AS competitor_id, s.day, count(*) AS mentions
               FROM snapshots s, ${competitorsOf} WHERE s.workspace_id = ? GROUP BY s.prompt_id, c.value, s.day) t
         WINDOW w AS (PARTITION BY prompt_id, competitor_id ORDER BY day) ORDER BY prompt_id, competitor_id, day`,
        [workspaceId],
      ),
    workspace_daily: await rowsOf(store,
        `SELECT workspace_id, day, platform, count(*) AS total, sum(mentioned) AS mentioned, sum(cited) AS cited
         FROM snapshots WHERE workspace_id = ? GROUP BY workspace_id, day, platform ORDER BY day, platform`,
        [workspaceId],
      ),
    workspace_competitor_daily: await rowsOf(store,
        `SELECT s.workspace_id, s.day, c.value AS competitor_id, count(*) AS mentions
         FROM snapshots s, ${competitorsOf} WHERE s.workspace_id = ?
         GROUP BY s.workspace_id, s.day, c.value ORDER BY s.day, c.value`,
        [workspaceId],
      ),
  };
}

async function lastCollected(promptId: string): Promise<number | null | undefined> {
  return valueOf<number | null>(store, 'SELECT last_collected_ms FROM prompts WHERE id = ?', [promptId]);
}

describe('import: visibility records', () => {
  it('when snapshots come before their prompt, the prompt before its category and competitors after the snapshots naming them, imports them all', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const category = categoryLine();
    const prompt = promptLine({ category_id: category.id });
    const chartwise = competitorLine({ name: 'Chartwise' });
    const first = snapshotLine({ prompt_id: prompt.id, collected_at: '2026-03-01T23:59:59.999Z', competitors: ['CHARTWISE'] });
    const second = snapshotLine({ prompt_id: prompt.id, collected_at: '2026-03-02T00:00:00.000+00:00', competitors: [], mentioned: false, cited: true });

    const summary = await importLines(store, workspaceId, [first.line, second.line, prompt.line, category.line, chartwise.line]);

    expect(summary).toEqual({ records: 5, inserted: 5, updated: 0, unchanged: 0, deleted: 0, events: 0, events_suppressed: 0 });
    expect(await rowsOf(store, 'SELECT id, prompt_id, platform, collected_ms, day, mentioned, cited, competitors, citations, answer FROM snapshots WHERE workspace_id = ? ORDER BY collected_ms', [workspaceId])).toEqual([
      { id: first.id, prompt_id: prompt.id, platform: 'chatgpt', collected_ms: Date.parse('2026-03-01T23:59:59.999Z'), day: day('2026-03-01T00:00:00Z'), mentioned: 1, cited: 0, competitors: JSON.stringify([chartwise.id]), citations: '[]', answer: 'An answer.' },
      { id: second.id, prompt_id: prompt.id, platform: 'chatgpt', collected_ms: Date.parse('2026-03-02T00:00:00.000Z'), day: day('2026-03-02T00:00:00Z'), mentioned: 0, cited: 1, competitors: '[]', citations: '[]', answer: 'An answer.' },
    ]);
    expect((await rowsOf(store, 'SELECT category_id, created_at, last_collected_ms FROM prompts WHERE id = ?', [prompt.id]))[0]).toEqual({
      category_id: category.id,
      created_at: '2026-01-01T00:00:00.000Z',
      last_collected_ms: Date.parse('2026-03-02T00:00:00.000Z'),
    });
    expect(await rollups(store, workspaceId)).toEqual({
      prompt_day_totals: [
        { prompt_id: prompt.id, day: day('2026-03-01T00:00:00Z'), total: 1, mentioned: 1, cited: 0, run_total: 1, run_mentioned: 1, run_cited: 0 },
        { prompt_id: prompt.id, day: day('2026-03-02T00:00:00Z'), total: 1, mentioned: 0, cited: 1, run_total: 2, run_mentioned: 1, run_cited: 1 },
      ],
      prompt_platform_running: [
        { prompt_id: prompt.id, platform: 'chatgpt', day: day('2026-03-01T00:00:00Z'), run_total: 1, run_mentioned: 1, run_cited: 0 },
        { prompt_id: prompt.id, platform: 'chatgpt', day: day('2026-03-02T00:00:00Z'), run_total: 2, run_mentioned: 1, run_cited: 1 },
      ],
      prompt_competitor_running: [{ prompt_id: prompt.id, competitor_id: chartwise.id, day: day('2026-03-01T00:00:00Z'), run_mentions: 1 }],
      workspace_daily: [
        { workspace_id: workspaceId, day: day('2026-03-01T00:00:00Z'), platform: 'chatgpt', total: 1, mentioned: 1, cited: 0 },
        { workspace_id: workspaceId, day: day('2026-03-02T00:00:00Z'), platform: 'chatgpt', total: 1, mentioned: 0, cited: 1 },
      ],
      workspace_competitor_daily: [{ workspace_id: workspaceId, day: day('2026-03-01T00:00:00Z'), competitor_id: chartwise.id, mentions: 1 }],
    });
  });

  it('when timestamps carry offsets and extra digits, stores UTC milliseconds on the right UTC day', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const prompt = promptLine({ created_at: '2026-01-01T01:30:00+02:00' });
    const late = snapshotLine({ prompt_id: prompt.id, collected_at: '2026-03-01T20:00:00.1234567-05:00' });
    await importLines(store, workspaceId, [prompt.line, late.line]);

    expect(await valueOf(store, 'SELECT created_at FROM prompts WHERE id = ?', [prompt.id])).toBe('2025-12-31T23:30:00.000Z');
    expect((await rowsOf(store, 'SELECT collected_ms, day FROM snapshots WHERE id = ?', [late.id]))[0]).toEqual({
      collected_ms: Date.parse('2026-03-02T01:00:00.123Z'),
      day: day('2026-03-02T00:00:00Z'),
    });
  });

  it('when the same file is imported twice, the second import counts everything unchanged and the database is identical', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const rival = competitorLine({ name: 'Metricly' });
    const prompt = promptLine();
    const lines = [
      rival.line,
      prompt.line,
      ...['chatgpt', 'perplexity', 'claude'].map(
        (platform, i) =>
          snapshotLine({ prompt_id: prompt.id, platform, collected_at: `2026-03-0${i + 1}T10:00:00Z`, competitors: ['metricly'], citations: [{ title: 'Pricing', url: 'https://acme.example/pricing' }] }).line,
      ),
    ];
    await importLines(store, workspaceId, lines);
    const before = await storeContents(store);

    expect(await importLines(store, workspaceId, lines)).toEqual({ records: 5, inserted: 0, updated: 0, unchanged: 5, deleted: 0, events: 0, events_suppressed: 0 });
    expect(await storeContents(store)).toEqual(before);
  });

  it('when a snapshot is updated to another day, platform, prompt and competitors, moves its contribution in every rollup', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const [a, b] = [competitorLine({ name: 'Alpha' }), competitorLine({ name: 'Beta' })];
    const [p1, p2] = [promptLine(), promptLine()];
    const moving = snapshotLine({ prompt_id: p1.id, collected_at: '2026-03-05T10:00:00Z', competitors: ['Alpha'], mentioned: true, cited: true });
    const staying = snapshotLine({ prompt_id: p1.id, collected_at: '2026-03-01T10:00:00Z', competitors: ['Alpha'], mentioned: true, cited: false });
    await importLines(store, workspaceId, [a.line, b.line, p1.line, p2.line, moving.line, staying.line]);
    expect(await lastCollected(p1.id)).toBe(Date.parse('2026-03-05T10:00:00Z'));

    const moved = snapshotLine({ id: moving.id, prompt_id: p2.id, platform: 'gemini', collected_at: '2026-03-03T10:00:00Z', competitors: ['beta'], mentioned: false, cited: true });
    expect(await importLines(store, workspaceId, [moved.line])).toEqual({ records: 1, inserted: 0, updated: 1, unchanged: 0, deleted: 0, events: 0, events_suppressed: 0 });

    const d1 = day('2026-03-01T00:00:00Z');
    const d3 = day('2026-03-03T00:00:00Z');
    // The moved snapshot's old day (p1, 2026-03-05) keeps no row anywhere.
    expect(await rollups(store, workspaceId)).toEqual({
      prompt_day_totals: [
        { prompt_id: p1.id, day: d1, total: 1, mentioned: 1, cited: 0, run_total: 1, run_mentioned: 1, run_cited: 0 },
        { prompt_id: p2.id, day: d3, total: 1, mentioned: 0, cited: 1, run_total: 1, run_mentioned: 0, run_cited: 1 },
      ].sort((x, y) => x.prompt_id.localeCompare(y.prompt_id)),
      prompt_platform_running: [
        { prompt_id: p1.id, platform: 'chatgpt', day: d1, run_total: 1, run_mentioned: 1, run_cited: 0 },
        { prompt_id: p2.id, platform: 'gemini', day: d3, run_total: 1, run_mentioned: 0, run_cited: 1 },
      ].sort((x, y) => x.prompt_id.localeCompare(y.prompt_id)),
      prompt_competitor_running: [
        { prompt_id: p1.id, competitor_id: a.id, day: d1, run_mentions: 1 },
        { prompt_id: p2.id, competitor_id: b.id, day: d3, run_mentions: 1 },
      ].sort((x, y) => x.prompt_id.localeCompare(y.prompt_id)),
      workspace_daily: [
        { workspace_id: workspaceId, day: d1, platform: 'chatgpt', total: 1, mentioned: 1, cited: 0 },
        { workspace_id: workspaceId, day: d3, platform: 'gemini', total: 1, mentioned: 0, cited: 1 },
      ],
      workspace_competitor_daily: [
        { workspace_id: workspaceId, day: d1, competitor_id: a.id, mentions: 1 },
        { workspace_id: workspaceId, day: d3, competitor_id: b.id, mentions: 1 },
      ],
    });
    expect(await rollups(store, workspaceId)).toEqual(await rollupsFromSnapshots(workspaceId));
    expect(await lastCollected(p1.id)).toBe(Date.parse('2026-03-01T10:00:00Z'));
    expect(await lastCollected(p2.id)).toBe(Date.parse('2026-03-03T10:00:00Z'));
  });

  it('when only the answer or citations change, updates the snapshot and leaves the rollups as they were', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const prompt = promptLine();
    const snap = snapshotLine({ prompt_id: prompt.id });
    await importLines(store, workspaceId, [prompt.line, snap.line]);
    const before = await rollups(store, workspaceId);

    const edited = snapshotLine({ ...snap.record, prompt_id: prompt.id, answer: 'A longer answer.', citations: [{ url: 'https://acme.example/', title: 'Acme' }] });
    expect(await importLines(store, workspaceId, [edited.line])).toMatchObject({ updated: 1 });
    expect(await rollups(store, workspaceId)).toEqual(before);
    expect((await rowsOf(store, 'SELECT citations, answer FROM snapshots WHERE id = ?', [snap.id]))[0]).toEqual({
      citations: '[{"url":"https://acme.example/","title":"Acme"}]',
      answer: 'A longer answer.',
    });
  });

  it('when citations come with their keys in another order, counts the snapshot unchanged', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const prompt = promptLine();
    const snap = snapshotLine({ prompt_id: prompt.id, citations: [{ url: 'https://acme.example/', title: 'Acme' }] });
    await importLines(store, workspaceId, [prompt.line, snap.line]);
    const reordered = snapshotLine({ ...snap.record, prompt_id: prompt.id, citations: [{ title: 'Acme', url: 'https://acme.example/' }] });
    expect(await importLines(store, workspaceId, [reordered.line])).toMatchObject({ unchanged: 1 });
  });

  it('when a competitor is renamed, later snapshots match the new name and the rollups keep its id', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const rival = competitorLine({ name: 'Chartwise' });
    const prompt = promptLine();
    await importLines(store, workspaceId, [rival.line, prompt.line, snapshotLine({ prompt_id: prompt.id, competitors: ['Chartwise'] }).line]);

    await importLines(store, workspaceId, [
      competitorLine({ id: rival.id, name: 'Chartwise Cloud', domain: 'chartwise.example' }).line,
      snapshotLine({ prompt_id: prompt.id, collected_at: '2026-03-01T13:00:00Z', competitors: ['chartwise cloud'] }).line,
    ]);

    expect((await rollups(store, workspaceId)).prompt_competitor_running).toEqual([
      { prompt_id: prompt.id, competitor_id: rival.id, day: day('2026-03-01T00:00:00Z'), run_mentions: 2 },
    ]);
  });

  it('when a large file comes in scrambled day order, the running totals written batch by batch equal a from-scratch computation', async () => {
    // Enough distinct (prompt, day, platform) keys for several batches: later batches change days
    // before the ones already written, so they wait in the staging table until the end.
    const { workspaceId } = await createTestWorkspace(store);
    const rivals = ['Alpha', 'Beta'].map((name) => competitorLine({ name }));
    const prompts = Array.from({ length: 20 }, () => promptLine());
    const platforms = ['chatgpt', 'google_ai_overview', 'perplexity', 'gemini', 'grok', 'claude'];
    const cells = prompts.length * platforms.length * 300;
    const lines = [...rivals, ...prompts].map((l) => l.line);
    for (let i = 0; i < 45_000; i += 1) {
      const cell = (i * 7_919) % cells;
      lines.push(
        snapshotLine({
          prompt_id: prompts[cell % prompts.length]!.id,
          platform: platforms[Math.floor(cell / prompts.length) % platforms.length],
          collected_at: new Date(Date.parse('2026-01-01T00:00:00Z') + Math.floor(cell / (prompts.length * platforms.length)) * DAY + (i % 1000) * 1000).toISOString(),
          mentioned: i % 3 !== 0,
          cited: i % 5 === 0,
          competitors: i % 4 === 0 ? ['Alpha'] : i % 4 === 1 ? ['Alpha', 'Beta'] : [],
        }).line,
      );
    }

    expect(await importLines(store, workspaceId, lines)).toMatchObject({ inserted: lines.length });
    expect(await rollups(store, workspaceId)).toEqual(await rollupsFromSnapshots(workspaceId));
  }, 120_000); // about 20 s alone; the 30 s default ran out with the lanes sharing two cores

  it('when many snapshots spread over many days are imported in several files with overlaps, the rollups equal a from-scratch computation', async () => {
    const { workspaceId } = await createTestWorkspace(store);
    const rivals = ['Alpha', 'Beta', 'Gamma'].map((name) => competitorLine({ name }));
    const prompts = [promptLine(), promptLine(), promptLine()];
    const platforms = ['chatgpt', 'google_ai_overview', 'perplexity', 'gemini', 'grok', 'claude'];
    const snaps = Array.from({ length: 300 }, (_, i) =>
      snapshotLine({
        prompt_id: prompts[i % 3]!.id,
        platform: platforms[(i * 7) % 6],
        collected_at: new Date(Date.parse('2026-02-01T00:00:00Z') + i * 3_600_000 * 5).toISOString(),
        mentioned: i % 3 !== 0,
        cited: i % 4 === 0,
        competitors: rivals.filter((_, r) => (i + r) % (r + 2) === 0).map((c) => c.record.name as string),
      }),
    );
    await importLines(store, workspaceId, [...rivals, ...prompts, ...snaps.slice(0, 200)].map((l) => l.line));
    // The second file repeats half of the first, changes some of it and adds the rest.
    const changed = snaps.slice(100, 200).map((s, i) =>
      i % 2 === 0 ? snapshotLine({ ...s.record, prompt_id: prompts[(i + 1) % 3]!.id, mentioned: !s.record.mentioned, collected_at: '2026-03-15T08:00:00Z', competitors: ['gamma'] }) : s,
    );
    const summary = await importLines(store, workspaceId, [...changed, ...snaps.slice(200)].map((l) => l.line));

    expect(summary).toEqual({ records: 200, inserted: 100, updated: 50, unchanged: 50, deleted: 0, events: 0, events_suppressed: 0 });
    expect(await rollups(store, workspaceId)).toEqual(await rollupsFromSnapshots(workspaceId));
    for (const p of prompts) {
      expect(await lastCollected(p.id)).toBe(await valueOf(store, 'SELECT max(collected_ms) FROM snapshots WHERE prompt_id = ?', [p.id]));
    }
  });
});
