// Statements and parameters both databases run as written, word for word: the SQLite store
// (sqlite/visibility-answers.ts) and the PostgreSQL one (postgres/visibility-answers.ts) share them.
import type { AnswerFilter, AnswerPosition, AnswerRow } from './interfaces/visibility-answers.js';

/** An answer's columns, with its prompt's text (`s` the snapshot, `p` its prompt). */
export const ANSWER_COLUMNS = `s.id, s.prompt_id, p.text AS prompt_text, s.platform, s.collected_ms, s.mentioned, s.cited,
  s.competitors, s.citations, s.answer`;

/** One answer of a workspace, by id (`?` the id, then the workspace). */
export const ANSWER_BY_ID = `SELECT ${ANSWER_COLUMNS} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id WHERE s.id = ? AND s.workspace_id = ?`;

/**
 * The window of a page: before the position and from the window's start. The row-value comparison
 * is one range condition on an index ending in (collected_ms, id), walked backwards by ANSWER_ORDER.
 */
export const ANSWER_WINDOW = '(s.collected_ms, s.id) < (@before_ms, @before_id) AND s.collected_ms >= @from_ms';
export const ANSWER_ORDER = 'ORDER BY s.collected_ms DESC, s.id DESC LIMIT @limit';

/** A page's named parameters (`prompt_id` only when the filter has one: its statement is another). */
export function answerPageParams(filter: AnswerFilter, limit: number, before?: AnswerPosition): Record<string, unknown> {
  return {
    workspace_id: filter.workspaceId,
    ...(filter.promptId === undefined ? {} : { prompt_id: filter.promptId }),
    platform: filter.platform ?? null,
    mentioned: filter.mentioned === undefined ? null : Number(filter.mentioned),
    cited: filter.cited === undefined ? null : Number(filter.cited),
    from_ms: filter.fromMs,
    // The first page starts just before the end of the window: (untilMs, '') sorts after every
    // answer collected before untilMs and before any collected at it.
    before_ms: before ? before[0] : filter.untilMs,
    before_id: before ? before[1] : '',
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
