// Statements and parameters both databases run as written, word for word: the SQLite store
// (sqlite/visibility-answers.ts) and the PostgreSQL one (postgres/visibility-answers.ts) share them.
import type { AnswerFilter, AnswerPosition, AnswerRow, AnswerUpdateFilter, AnswerUpdatePosition } from './interfaces/visibility-answers.js';

/** An answer's columns, with its prompt's text (`s` the snapshot, `p` its prompt). */
export const ANSWER_COLUMNS = `s.id, s.prompt_id, p.text AS prompt_text, s.platform, s.collected_ms, s.mentioned, s.cited,
  s.competitors, s.citations, s.answer, s.updated_at`;

/** One answer of a workspace, by id (`?` the id, then the workspace). */
export const ANSWER_BY_ID = `SELECT ${ANSWER_COLUMNS} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id WHERE s.id = ? AND s.workspace_id = ?`;

/**
 * The window of a page: before the position and from the window's start. The row-value comparison
 * is one range condition on an index ending in (collected_ms, id), walked backwards by ANSWER_ORDER.
 */
export const ANSWER_WINDOW = '(s.collected_ms, s.id) < (@before_ms, @before_id) AND s.collected_ms >= @from_ms';
export const ANSWER_ORDER = 'ORDER BY s.collected_ms DESC, s.id DESC LIMIT @limit';

/** In update order: after the position, one range condition on an index ending in (updated_at, id), walked forwards. */
export const ANSWER_AFTER_UPDATE = '(s.updated_at, s.id) > (@after_updated_at, @after_id)';
export const ANSWER_UPDATE_ORDER = 'ORDER BY s.updated_at, s.id LIMIT @limit';

/** The named parameters of the optional filters, absent ones as NULL. */
function optionalParams(filter: AnswerFilter | AnswerUpdateFilter): Record<string, unknown> {
  return {
    workspace_id: filter.workspaceId,
    prompt_id: filter.promptId ?? null,
    platform: filter.platform ?? null,
    mentioned: filter.mentioned === undefined ? null : Number(filter.mentioned),
    cited: filter.cited === undefined ? null : Number(filter.cited),
    updated_after: filter.updatedAfter ?? null,
  };
}

/** A page's named parameters (`prompt_id` is read only by the prompt's statement). */
export function answerPageParams(filter: AnswerFilter, limit: number, before?: AnswerPosition): Record<string, unknown> {
  return {
    ...optionalParams(filter),
    from_ms: filter.fromMs,
    // The first page starts just before the end of the window: (untilMs, '') sorts after every
    // answer collected before untilMs and before any collected at it.
    before_ms: before ? before[0] : filter.untilMs,
    before_id: before ? before[1] : '',
    limit,
  };
}

/**
 * A page's named parameters in update order. Without a position, the page starts just before the
 * first millisecond after `updated_after` (stored times have milliseconds, and every id sorts after
 * ''), so the index seeks straight to the first answer changed strictly after it, however many
 * changed before; without a bound, before every stored time.
 */
export function answerUpdatePageParams(filter: AnswerUpdateFilter, limit: number, after?: AnswerUpdatePosition): Record<string, unknown> {
  const updatedAfter = filter.updatedAfter ?? null;
  const first = { after_updated_at: updatedAfter === null ? '' : new Date(Date.parse(updatedAfter) + 1).toISOString(), after_id: '' };
  return {
    ...optionalParams(filter),
    from_ms: filter.fromMs,
    until_ms: filter.untilMs,
    ...(after ? { after_updated_at: after[0], after_id: after[1] } : first),
    limit,
  };
}

/**
 * Every matching answer, newest first, read `chunk` rows at a time by `page`, each chunk a read of
 * its own after the previous chunk's last answer: nothing stays open between chunks, however long
 * the client takes to download.
 */
export async function* answersInChunks(
  page: (filter: AnswerFilter, limit: number, before?: AnswerPosition) => Promise<AnswerRow[]>,
  filter: AnswerFilter,
  chunk: number,
): AsyncGenerator<AnswerRow, void, undefined> {
  let before: AnswerPosition | undefined;
  for (;;) {
    const rows = await page(filter, chunk, before);
    yield* rows;
    if (rows.length < chunk) return;
    const last = rows[rows.length - 1]!;
    before = [last.collected_ms, last.id];
  }
}
