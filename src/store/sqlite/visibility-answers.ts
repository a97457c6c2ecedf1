import type { AnswerFilter, AnswerPosition, AnswerRow, AnswerStore } from '../interfaces/visibility-answers.js';
import { ANSWER_BY_ID, ANSWER_COLUMNS, ANSWER_ORDER, ANSWER_WINDOW, answerPageParams, answersInChunks } from '../answer-statements.js';
import type { Db } from './database.js';
import { promised } from './promised.js';

/**
 * The answers, newest first. Pages and export chunks are read by keyset on (collected_ms, id)
 * descending, which the time indexes serve backwards: a page costs its own rows, however deep.
 */
export function createAnswerStore(db: Db): AnswerStore {
  // Absent filters are NULL, so one statement serves every combination; the prompt filter gets its
  // own statement because it changes which index SQLite should walk.
  const optional = `(@platform IS NULL OR s.platform = @platform)
    AND (@mentioned IS NULL OR s.mentioned = @mentioned) AND (@cited IS NULL OR s.cited = @cited)`;
  const statements = {
    page: db.prepare(
      `SELECT ${ANSWER_COLUMNS} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
       WHERE s.workspace_id = @workspace_id AND ${ANSWER_WINDOW} AND ${optional} ${ANSWER_ORDER}`,
    ),
    pageOfPrompt: db.prepare(
      `SELECT ${ANSWER_COLUMNS} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
       WHERE s.prompt_id = @prompt_id AND s.workspace_id = @workspace_id AND ${ANSWER_WINDOW} AND ${optional} ${ANSWER_ORDER}`,
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
