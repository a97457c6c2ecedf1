import type { components } from '../../generated/openapi.js';
import { dateOfDay, periodsFor, type RangeValue } from '../analytics/periods.js';
import type { Platform } from '../analytics/platforms.js';
import { rate } from '../analytics/rates.js';
import type { Counts } from '../analytics/prompt-analytics.js';
import type { Store } from '../store/index.js';
import type { AnswerFilter } from '../store/interfaces/visibility-answers.js';
import { answerFilter, answerFormatter, type Answer, type AnswerQuery } from './answers.js';
import { csvRecord } from './csv.js';

/** The file formats of the downloads: each has its own operation, so each response has one media type. */
export type ExportFormat = 'csv' | 'ndjson';
type DailyRate = components['schemas']['DailyRate'];

/** A download: its media type, suggested file name and lines, read lazily as they are written. */
export interface ExportFile {
  contentType: string;
  filename: string;
  lines: () => AsyncIterable<string>;
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  ndjson: 'application/x-ndjson',
};

const ANSWER_COLUMNS = ['id', 'collected_at', 'prompt_id', 'prompt_text', 'platform', 'mentioned', 'cited', 'competitors', 'citation_urls', 'text'];
const DAILY_RATE_COLUMNS = ['date', 'snapshots', 'mentioned', 'cited', 'mention_rate', 'citation_rate'] as const;

function answerCsv(a: Answer): string {
  return csvRecord([
    a.id, a.collected_at, a.prompt.id, a.prompt.text, a.platform, a.mentioned, a.cited,
    a.competitors.join('; '), a.citations.map((c) => c.url).join(' '), a.text,
  ]);
}

async function* lines<T>(format: ExportFormat, header: readonly string[], rows: AsyncIterable<T> | Iterable<T>, toCsv: (row: T) => string): AsyncGenerator<string> {
  if (format === 'csv') yield csvRecord(header);
  for await (const row of rows) yield format === 'csv' ? toCsv(row) : `${JSON.stringify(row)}\n`;
}

/** The stored answers as the answers list shows them, read a chunk at a time as the download is written. */
async function* formattedAnswers(store: Store, filter: AnswerFilter): AsyncGenerator<Answer> {
  const format = await answerFormatter(store, filter.workspaceId);
  for await (const row of store.answers.all(filter)) yield format(row);
}

/** The daily rates, read when the download starts. */
async function* dailyRateRows(store: Store, request: Parameters<typeof dailyRates>[1]): AsyncGenerator<DailyRate> {
  yield* await dailyRates(store, request);
}

/** Every answer of the range matching the filters, newest first, as the answers list shows them. */
export function exportAnswers(store: Store, query: AnswerQuery & { format: ExportFormat; now: Date }): ExportFile {
  const periods = periodsFor(query.range, query.now);
  return {
    contentType: CONTENT_TYPES[query.format],
    filename: `answers-${query.range}-${dateOfDay(periods.today)}.${query.format}`,
    lines: () => lines(query.format, ANSWER_COLUMNS, formattedAnswers(store, answerFilter(query, periods)), answerCsv),
  };
}

/** The range's days that have snapshots (of `platform`, or all), ascending, with their counts and rates. */
async function dailyRates(store: Store, request: { workspaceId: string; range: RangeValue; platform?: Platform | undefined; now: Date }): Promise<DailyRate[]> {
  const periods = periodsFor(request.range, request.now);
  const byDay = new Map<number, Counts>();
  for (const row of await store.visibilityOverview.workspaceDaily(request.workspaceId, periods.currentStart, periods.today, request.platform)) {
    const day = byDay.get(row.day) ?? { total: 0, mentioned: 0, cited: 0 };
    day.total += row.total;
    day.mentioned += row.mentioned;
    day.cited += row.cited;
    byDay.set(row.day, day);
  }
  return [...byDay.entries()]
    .filter(([, c]) => c.total > 0)
    .sort(([a], [b]) => a - b)
    .map(([day, c]) => ({
      date: dateOfDay(day),
      snapshots: c.total,
      mentioned: c.mentioned,
      cited: c.cited,
      mention_rate: rate(c.mentioned, c.total)!,
      citation_rate: rate(c.cited, c.total)!,
    }));
}

export function exportDailyRates(
  store: Store,
  request: { workspaceId: string; range: RangeValue; platform?: Platform | undefined; format: ExportFormat; now: Date },
): ExportFile {
  const periods = periodsFor(request.range, request.now);
  const suffix = request.platform === undefined ? '' : `-${request.platform}`;
  return {
    contentType: CONTENT_TYPES[request.format],
    filename: `daily-rates-${request.range}${suffix}-${dateOfDay(periods.today)}.${request.format}`,
    lines: () => lines(request.format, DAILY_RATE_COLUMNS, dailyRateRows(store, request), (r) => csvRecord(DAILY_RATE_COLUMNS.map((c) => r[c]))),
  };
}
