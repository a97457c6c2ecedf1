import type {
  AnswerFilter, AnswerPosition, AnswerRow, AnswerStore, AnswerUpdateFilter, AnswerUpdatePosition,
} from '../interfaces/visibility-answers.js';
import {
  ANSWER_AFTER_UPDATE, ANSWER_BY_ID, ANSWER_COLUMNS, ANSWER_ORDER, ANSWER_UPDATE_ORDER, ANSWER_WINDOW,
  answerPageParams, answersInChunks, answerUpdatePageParams,
} from '../answer-statements.js';
import type { Db } from './database.js';
import { promised } from './promised.js';

/**
 * The answers, newest first. Pages and export chunks are read by keyset on (collected_ms, id)
 * descending, which the time indexes serve backwards: a page costs its own rows, however deep.
 * In update order (incremental sync) pages are read by keyset on (updated_at, id) ascending, which
 * `snapshots_by_update` serves the same way.
 */
export function createAnswerStore(db: Db): AnswerStore {
  // Absent filters are NULL, so one statement serves every combination; the prompt filter gets its
  // own statement because it changes which index SQLite should walk.
  const optional = `(@platform IS NULL OR s.platform = @platform)
    AND (@mentioned IS NULL OR s.mentioned = @mentioned) AND (@cited IS NULL OR s.cited = @cited)
    AND (@updated_after IS NULL OR s.updated_at > @updated_after)`;
  const updateWindow = `${ANSWER_AFTER_UPDATE}
    AND (@from_ms IS NULL OR (s.collected_ms >= @from_ms AND s.collected_ms < @until_ms))`;
  const statements = {
    page: db.prepare(
      `SELECT ${ANSWER_COLUMNS} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
       WHERE s.workspace_id = @workspace_id AND ${ANSWER_WINDOW} AND ${optional} ${ANSWER_ORDER}`,
    ),
    pageOfPrompt: db.prepare(
      `SELECT ${ANSWER_COLUMNS} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
       WHERE s.prompt_id = @prompt_id AND s.workspace_id = @workspace_id AND ${ANSWER_WINDOW} AND ${optional} ${ANSWER_ORDER}`,
    ),
    pageByUpdate: db.prepare(
      `SELECT ${ANSWER_COLUMNS} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
       WHERE s.workspace_id = @workspace_id AND ${updateWindow} AND ${optional} ${ANSWER_UPDATE_ORDER}`,
    ),
    pageOfPromptByUpdate: db.prepare(
      `SELECT ${ANSWER_COLUMNS} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
       WHERE s.prompt_id = @prompt_id AND s.workspace_id = @workspace_id AND ${updateWindow} AND ${optional} ${ANSWER_UPDATE_ORDER}`,
    ),
    get: db.prepare(ANSWER_BY_ID),
    competitorNames: db.prepare('SELECT id, name FROM competitors WHERE workspace_id = ?').raw(),
  };

  function page(filter: AnswerFilter, limit: number, before?: AnswerPosition): AnswerRow[] {
    const params = answerPageParams(filter, limit, before);
    return (filter.promptId === undefined ? statements.page.all(params) : statements.pageOfPrompt.all(params)) as AnswerRow[];
  }

  const reads = promised({
    page,
    /** One page in update order (oldest change first, then id), after `after` when given. */
    pageByUpdate(filter: AnswerUpdateFilter, limit: number, after?: AnswerUpdatePosition): AnswerRow[] {
      const params = answerUpdatePageParams(filter, limit, after);
      return (filter.promptId === undefined ? statements.pageByUpdate.all(params) : statements.pageOfPromptByUpdate.all(params)) as AnswerRow[];
    },
    get(workspaceId: string, id: string): AnswerRow | undefined {
      return statements.get.get(id, workspaceId) as AnswerRow | undefined;
    },
    /** id → name of every competitor the workspace tracks. */
    competitorNames(workspaceId: string): Map<string, string> {
      return new Map(statements.competitorNames.all(workspaceId) as [string, string][]);
    },
  });

  return {
    ...reads,
    /**
     * Every matching answer, newest first, read `chunk` rows at a time. No statement stays open
     * between chunks: an open better-sqlite3 iterator would block every write on this connection
     * for as long as the client takes to download.
     */
    all(filter: AnswerFilter, chunk = 500): AsyncGenerator<AnswerRow, void, undefined> {
      return answersInChunks(reads.page, filter, chunk);
    },
  };
}
