import type { components } from '../../generated/openapi.js';
import type { Cursors, CursorScope } from '../pagination/cursor.js';
import { readRecordPage, snakeCaseTimes, type RecordListQuery } from '../pagination/record-page.js';
import type { PromptStore } from '../store/interfaces/prompts.js';
import type { VisibilityAnalyticsStore } from '../store/interfaces/visibility-analytics.js';
import { periodsFor, type RangeValue } from './periods.js';
import { computePromptAnalytics, NO_COUNTS, promptView, type PromptAnalytics, type PromptRecord, type PromptStatus } from './prompt-analytics.js';

export type PromptList = components['schemas']['PromptList'];

/** The store areas the prompt reads need (the HTTP handlers and the bare benchmark server share them). */
export interface PromptReadStores {
  prompts: PromptStore;
  visibilityAnalytics: VisibilityAnalyticsStore;
}

/**
 * One prompt's analytics over `range`, from its running totals (two seeks per sum) and one row per
 * day of the current period; undefined when the workspace has no such prompt.
 */
export async function readPromptAnalytics(
  stores: PromptReadStores,
  request: { workspaceId: string; promptId: string; range: RangeValue; alpha: number; now: Date },
): Promise<PromptAnalytics | undefined> {
  const prompt = await stores.prompts.get(request.workspaceId, request.promptId);
  if (!prompt) return undefined;
  const periods = periodsFor(request.range, request.now);
  const [totals, competitors] = await Promise.all([
    stores.visibilityAnalytics.promptPeriodTotals(prompt.id, periods),
    stores.visibilityAnalytics.promptCompetitorMentions(request.workspaceId, prompt.id, periods.currentStart, periods.today),
  ]);
  return computePromptAnalytics({
    periods,
    prompt,
    totals,
    competitors,
    alpha: request.alpha,
  });
}

export interface PromptListRequest {
  workspaceId: string;
  range: RangeValue;
  /** The significance level of the deltas. */
  alpha: number;
  status?: PromptStatus | undefined;
  categoryId?: string | undefined;
  q?: string | undefined;
  limit: number;
  cursor?: string | undefined;
  /** Creation (default) or update order, and the incremental-sync bound, as the query gives them. */
  order: RecordListQuery['order'];
  updatedAfter?: string | undefined;
  now: Date;
}

/**
 * One page of the workspace's prompts in (created_at, id) or (updated_at, id) order, each with its rates over
 * `range`, read for the whole page in one statement (three running-total seeks per prompt).
 */
export async function readPromptList(stores: PromptReadStores, cursors: Cursors, request: PromptListRequest): Promise<PromptList> {
  // `range`, `alpha` and `limit` do not decide which prompts are listed, so they may change between pages.
  const scope: CursorScope = {
    list: 'listPrompts',
    workspaceId: request.workspaceId,
    // q matches case-insensitively, so `CRM` and `crm` list the same prompts and share cursors.
    filters: { status: request.status, category_id: request.categoryId, q: request.q?.toLowerCase() },
  };
  const filters = { workspaceId: request.workspaceId, status: request.status, categoryId: request.categoryId, q: request.q };
  const page = await readRecordPage<PromptRecord>(
    cursors,
    scope,
    { limit: request.limit, cursor: request.cursor, order: request.order, updated_after: request.updatedAfter },
    (p) => stores.prompts.list(filters, p),
    snakeCaseTimes,
  );
  const periods = periodsFor(request.range, request.now);
  const { alpha } = request;
  const counts = new Map((await stores.visibilityAnalytics.promptPeriodCounts(page.items.map((p) => p.id), periods)).map((c) => [c.prompt_id, c]));
  return {
    items: page.items.map((p) => {
      const c = counts.get(p.id);
      return promptView(p, c?.current ?? NO_COUNTS, c?.previous ?? NO_COUNTS, alpha);
    }),
    next_cursor: page.next_cursor,
  };
}
