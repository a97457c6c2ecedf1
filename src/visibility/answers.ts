import type { components } from '../../generated/openapi.js';
import { DAY_MS, periodsFor, type Periods, type RangeValue } from '../analytics/periods.js';
import type { Platform } from '../analytics/platforms.js';
import { compareCodePoints } from '../analytics/prompt-analytics.js';
import { decodeCursor, takePage, type CursorScope } from '../pagination/cursor.js';
import type { Store } from '../store/index.js';
import type { AnswerFilter, AnswerRow } from '../store/interfaces/visibility-answers.js';
import { hostOf, isOwnHost } from '../store/domains.js';

export type Answer = components['schemas']['Answer'];
export type AnswerList = components['schemas']['AnswerList'];

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
    };
  };
}

/** The stored-answer filter of a query over the current period of `periods`. */
export function answerFilter(query: AnswerQuery, periods: Periods): AnswerFilter {
  return {
    workspaceId: query.workspaceId,
    fromMs: periods.currentStart * DAY_MS,
    untilMs: (periods.today + 1) * DAY_MS,
    promptId: query.prompt,
    platform: query.platform,
    mentioned: query.mentioned,
    cited: query.cited,
  };
}

/**
 * One page of answers, newest first. The cursor carries the walk's "today" with the position, so
 * a walk that crosses midnight UTC keeps the period it started with.
 */
export async function readAnswers(store: Store, query: AnswerQuery & { limit: number; cursor?: string | undefined; now: Date }): Promise<AnswerList> {
  const scope: CursorScope = {
    list: 'listAnswers',
    workspaceId: query.workspaceId,
    filters: { range: query.range, prompt: query.prompt, platform: query.platform, mentioned: query.mentioned, cited: query.cited },
  };
  const after = query.cursor === undefined ? undefined : decodeCursor(scope, query.cursor, ['number', 'number', 'string'] as const);
  const periods = periodsFor(query.range, after ? new Date(after[0] * DAY_MS) : query.now);
  const rows = await store.answers.page(answerFilter(query, periods), query.limit + 1, after ? [after[1], after[2]] : undefined);
  const page = takePage(rows, query.limit, scope, (r) => [periods.today, r.collected_ms, r.id]);
  const format = await answerFormatter(store, query.workspaceId);
  return { items: page.rows.map(format), next_cursor: page.next_cursor };
}

/** One answer of the workspace; undefined for an unknown id or another workspace's answer alike. */
export async function readAnswer(store: Store, workspaceId: string, id: string): Promise<Answer | undefined> {
  const row = await store.answers.get(workspaceId, id);
  return row && (await answerFormatter(store, workspaceId))(row);
}
