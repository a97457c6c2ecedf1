import type { components, operations } from '../../generated/openapi.js';
import { DAY_MS, periodInstants, periodsFor, type Periods, type RangeValue } from '../analytics/periods.js';
import type { Platform } from '../analytics/platforms.js';
import { compareCodePoints } from '../analytics/prompt-analytics.js';
import type { CursorField, Cursors, CursorScope } from '../pagination/cursor.js';
import { parameterDefault } from '@workspace-read-api/contract/documents.js';
import { storedInstant } from '../pagination/record-page.js';
import type { Store } from '../store/index.js';
import type { AnswerFilter, AnswerRow } from '../store/interfaces/visibility-answers.js';
import { hostOf, isOwnHost } from '../store/domains.js';

export type Answer = components['schemas']['Answer'];
export type AnswerList = components['schemas']['AnswerList'];
type AnswerOrder = NonNullable<operations['listAnswers']['parameters']['query']>['order'];

/** The filters of the answers list and of the answers export. */
export interface AnswerQuery {
  workspaceId: string;
  range: RangeValue;
  prompt?: string | undefined;
  platform?: Platform | undefined;
  mentioned?: boolean | undefined;
  cited?: boolean | undefined;
}

/** Turns stored answers into `Answer` objects: competitor ids to names, citations with their domain. */
export async function answerFormatter(store: Store, workspaceId: string): Promise<(row: AnswerRow) => Answer> {
  const [names, profile] = await Promise.all([store.answers.competitorNames(workspaceId), store.workspaceProfile.getProfile(workspaceId)]);
  const domains = profile?.domains ?? [];
  return (row) => {
    const competitors: string[] = [];
    for (const id of JSON.parse(row.competitors) as string[]) {
      const name = names.get(id);
      if (name !== undefined) competitors.push(name);
    }
    return {
      id: row.id,
      prompt: { id: row.prompt_id, text: row.prompt_text },
      platform: row.platform as Platform,
      collected_at: new Date(row.collected_ms).toISOString(),
      mentioned: row.mentioned === 1,
      cited: row.cited === 1,
      competitors: competitors.sort(compareCodePoints),
      citations: (JSON.parse(row.citations) as Array<{ url: string; title: string }>).map(({ url, title }) => {
        const domain = hostOf(url);
        return { url, title, domain, is_own: isOwnHost(domain, domains) };
      }),
      text: row.answer,
      updated_at: row.updated_at,
    };
  };
}

/** The current period of `periods` as a collection window: instants [fromMs, untilMs). */
function collectionWindow(periods: Periods): { fromMs: number; untilMs: number } {
  const instants = periodInstants(periods);
  return { fromMs: instants.current_from_ms, untilMs: instants.until_ms };
}

/** The stored-answer filters of a query, but its collection window. */
function answerMatch(query: Omit<AnswerQuery, 'range'>) {
  return { workspaceId: query.workspaceId, promptId: query.prompt, platform: query.platform, mentioned: query.mentioned, cited: query.cited };
}

/** The stored-answer filter of a query over the current period of `periods`. */
export function answerFilter(query: AnswerQuery, periods: Periods): AnswerFilter {
  return { ...answerMatch(query), ...collectionWindow(periods) };
}

/** The answers list's query: `range` defaults in collection order only, to the contract's default of `Range`. */
export type AnswerListQuery = Omit<AnswerQuery, 'range'> & {
  range?: RangeValue | undefined;
  order: NonNullable<AnswerOrder>;
  updatedAfter?: string | undefined;
  limit: number;
  cursor?: string | undefined;
  now: Date;
};

/**
 * One page of answers, newest first, or in update order (oldest change first) for incremental sync.
 * The cursor carries the walk's "today" with the position, so a walk that crosses midnight UTC keeps
 * the period it started with; it is bound to the filters, the order and `updated_after`.
 */
export async function readAnswers(store: Store, cursors: Cursors, query: AnswerListQuery): Promise<AnswerList> {
  const { order } = query;
  const updatedAfter = query.updatedAfter === undefined ? null : storedInstant(query.updatedAfter);
  // A sync reads every answer that changed, whatever its collection time, unless `range` narrows it.
  const defaultRange = parameterDefault('Range') as RangeValue;
  const range = order === 'collected_at' ? query.range ?? defaultRange : query.range;
  const scope: CursorScope = {
    list: 'listAnswers',
    workspaceId: query.workspaceId,
    // The default order and an absent bound stay out of the scope, so cursors issued before the list had them still work.
    filters: {
      range, prompt: query.prompt, platform: query.platform, mentioned: query.mentioned, cited: query.cited,
      order: order === 'collected_at' ? undefined : order, updated_after: updatedAfter,
    },
  };
  const decode = <const K extends readonly CursorField[]>(fields: K) =>
    query.cursor === undefined ? undefined : cursors.decode(scope, query.cursor, fields);
  // The period of the walk's first page (without a range, only its "today" is used: it keeps the cursor's shape).
  const periodsOf = (day: number | undefined) => periodsFor(range ?? defaultRange, day === undefined ? query.now : new Date(day * DAY_MS));
  const match = { ...answerMatch(query), updatedAfter };
  const format = await answerFormatter(store, query.workspaceId);
  if (order === 'updated_at') {
    const after = decode(['day', 'timestamp', 'text']);
    const periods = periodsOf(after?.[0]);
    const window = range === undefined ? { fromMs: null, untilMs: null } : collectionWindow(periods);
    const rows = await store.answers.pageByUpdate({ ...match, ...window }, query.limit + 1, after ? [after[1], after[2]] : undefined);
    const page = cursors.takePage(rows, query.limit, scope, (r) => [periods.today, r.updated_at, r.id]);
    return { items: page.rows.map(format), next_cursor: page.next_cursor };
  }
  const after = decode(['day', 'instant', 'text']);
  const periods = periodsOf(after?.[0]);
  const rows = await store.answers.page({ ...match, ...collectionWindow(periods) }, query.limit + 1, after ? [after[1], after[2]] : undefined);
  const page = cursors.takePage(rows, query.limit, scope, (r) => [periods.today, r.collected_ms, r.id]);
  return { items: page.rows.map(format), next_cursor: page.next_cursor };
}

/** One answer of the workspace; undefined for an unknown id or another workspace's answer alike. */
export async function readAnswer(store: Store, workspaceId: string, id: string): Promise<Answer | undefined> {
  const row = await store.answers.get(workspaceId, id);
  return row && (await answerFormatter(store, workspaceId))(row);
}
