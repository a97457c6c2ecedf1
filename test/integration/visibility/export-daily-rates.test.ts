import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createTestWorkspace, type TestWorkspace } from '../../support/accounts.js';
import { promptLine, snap } from '../../support/import-records.js';
import { useTestServer } from '../../support/test-server.js';
import { getWith, importRecords } from '../../support/visibility.js';

// Today is 2026-11-22 (UTC): with range=7d the current period is 11-16..11-22.
const NOW = new Date('2026-11-22T12:00:00.000Z');

const server = useTestServer({ now: () => NOW });

async function seed(ws: TestWorkspace): Promise<void> {
  const p1 = promptLine();
  const p2 = promptLine();
  await importRecords(server.store, ws, [
    p1, p2,
    snap(p1.id, '2026-11-22T01:00:00.000Z', 'chatgpt', 'mc'),
    snap(p2.id, '2026-11-22T02:00:00.000Z', 'chatgpt', ''),
    snap(p2.id, '2026-11-22T03:00:00.000Z', 'perplexity', 'm'),
    snap(p1.id, '2026-11-18T03:00:00.000Z', 'perplexity', 'c'),
    snap(p1.id, '2026-11-16T00:00:00.000Z', 'chatgpt', 'm'),
    snap(p1.id, '2026-11-15T23:59:59.999Z', 'chatgpt', 'mc'), // before the 7-day period
  ]);
}

const ALL_7D = [
  { date: '2026-11-16', snapshots: 1, mentioned: 1, cited: 0, mention_rate: 1, citation_rate: 0 },
  { date: '2026-11-18', snapshots: 1, mentioned: 0, cited: 1, mention_rate: 0, citation_rate: 1 },
  { date: '2026-11-22', snapshots: 3, mentioned: 2, cited: 1, mention_rate: 0.6667, citation_rate: 0.3333 },
];

const exportOf = (ws: TestWorkspace, query: Record<string, string>) => getWith(server, ws, '/api/v1/visibility/exports/daily-rates', query);
const ndjsonExportOf = (ws: TestWorkspace, query: Record<string, string>) => getWith(server, ws, '/api/v1/visibility/exports/daily-rates.ndjson', query);

describe('GET /api/v1/visibility/exports/daily-rates and daily-rates.ndjson', () => {
  it('when NDJSON is asked for, serves one line per day with snapshots, ascending, with counts and rates', async () => {
    const ws = await createTestWorkspace(server.store);
    await seed(ws);
    const res = await ndjsonExportOf(ws, { range: '7d' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="daily-rates-7d-2026-11-22.ndjson"');
    expect(res.text.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual(ALL_7D);
  });

  it('when CSV is asked for, serves the same rows with a header, parsed back by a CSV parser', async () => {
    const ws = await createTestWorkspace(server.store);
    await seed(ws);
    const res = await exportOf(ws, { range: '7d' });
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="daily-rates-7d-2026-11-22.csv"');
    expect(res.text.split('\r\n')[0]).toBe('date,snapshots,mentioned,cited,mention_rate,citation_rate');
    const rows = parse(res.text, { columns: true, cast: (value, ctx) => (ctx.header || ctx.column === 'date' ? value : Number(value)) });
    expect(rows).toEqual(ALL_7D);
  });

  it('when a platform is given, counts only that platform and names it in the file name', async () => {
    const ws = await createTestWorkspace(server.store);
    await seed(ws);
    const res = await ndjsonExportOf(ws, { range: '7d', platform: 'chatgpt' });
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="daily-rates-7d-chatgpt-2026-11-22.ndjson"');
    expect(res.text.trim().split('\n').map((l) => JSON.parse(l) as unknown)).toEqual([
      { date: '2026-11-16', snapshots: 1, mentioned: 1, cited: 0, mention_rate: 1, citation_rate: 0 },
      { date: '2026-11-22', snapshots: 2, mentioned: 1, cited: 1, mention_rate: 0.5, citation_rate: 0.5 },
    ]);
  });

  it('when compared with the rates endpoint, every day\'s rates equal its trend points', async () => {
    const ws = await createTestWorkspace(server.store);
    await seed(ws);
    const exported = (await ndjsonExportOf(ws, { range: '30d' })).text.trim().split('\n').map((l) => JSON.parse(l) as { date: string; mention_rate: number; citation_rate: number });
    const trend = ((await getWith(server, ws, '/api/v1/visibility/rates', { range: '30d' })).body as {
      data: { trend_series: { mention: Array<{ date: string; rate: number }>; citation: Array<{ date: string; rate: number }> } };
    }).data.trend_series;
    expect(exported.map((r) => ({ date: r.date, rate: r.mention_rate }))).toEqual(trend.mention);
    expect(exported.map((r) => ({ date: r.date, rate: r.citation_rate }))).toEqual(trend.citation);
  });

  it('when another workspace has answers, exports none of its days', async () => {
    const ws = await createTestWorkspace(server.store);
    const other = await createTestWorkspace(server.store);
    await seed(other);
    expect((await ndjsonExportOf(ws, { range: '90d' })).text).toBe('');
    expect((await exportOf(ws, { range: '90d', format: 'csv' })).text).toBe('date,snapshots,mentioned,cited,mention_rate,citation_rate\r\n');
  });

  it('when the subscription is canceled, answers a JSON 402 envelope', async () => {
    const ws = await createTestWorkspace(server.store, { subscription: 'canceled' });
    const res = await exportOf(ws, {});
    expect([res.status, (res.body as { code: number }).code]).toEqual([402, 1916]);
  });
});
