import type {
  AnswerFilter, AnswerPosition, AnswerRow, AnswerStore, AnswerUpdateFilter, AnswerUpdatePosition,
} from '../interfaces/visibility-answers.js';
import {
  ANSWER_AFTER_UPDATE, ANSWER_BY_ID, ANSWER_COLUMNS, ANSWER_ORDER, ANSWER_UPDATE_ORDER, ANSWER_WINDOW,
  answerPageParams, answersInChunks, answerUpdatePageParams,
} from '../answer-statements.js';
import { row, rows, type Queryable } from './query.js';

// Absent filters are NULL, as in `../sqlite/visibility-answers.ts` (cast where tested for NULL:
// PostgreSQL must know a parameter's type from its first use); the prompt filter has its own
// statement so that its indexes (prompt_id, collected_ms | updated_at, id) are the ones walked.
const OPTIONAL = `(CAST(@platform AS TEXT) IS NULL OR s.platform = @platform)
  AND (CAST(@mentioned AS INTEGER) IS NULL OR s.mentioned = @mentioned) AND (CAST(@cited AS INTEGER) IS NULL OR s.cited = @cited)
  AND (CAST(@updated_after AS TEXT) IS NULL OR s.updated_at > @updated_after)`;
const UPDATE_WINDOW = `${ANSWER_AFTER_UPDATE}
  AND (CAST(@from_ms AS BIGINT) IS NULL OR (s.collected_ms >= @from_ms AND s.collected_ms < @until_ms))`;
const FROM = 'FROM snapshots s JOIN prompts p ON p.id = s.prompt_id';

const STATEMENTS = {
  page: `SELECT ${ANSWER_COLUMNS} ${FROM}
     WHERE s.workspace_id = @workspace_id AND ${ANSWER_WINDOW} AND ${OPTIONAL} ${ANSWER_ORDER}`,
  pageOfPrompt: `SELECT ${ANSWER_COLUMNS} ${FROM}
     WHERE s.prompt_id = @prompt_id AND s.workspace_id = @workspace_id AND ${ANSWER_WINDOW} AND ${OPTIONAL} ${ANSWER_ORDER}`,
  pageByUpdate: `SELECT ${ANSWER_COLUMNS} ${FROM}
     WHERE s.workspace_id = @workspace_id AND ${UPDATE_WINDOW} AND ${OPTIONAL} ${ANSWER_UPDATE_ORDER}`,
  pageOfPromptByUpdate: `SELECT ${ANSWER_COLUMNS} ${FROM}
     WHERE s.prompt_id = @prompt_id AND s.workspace_id = @workspace_id AND ${UPDATE_WINDOW} AND ${OPTIONAL} ${ANSWER_UPDATE_ORDER}`,
  // In the order SQLite reads them (its (workspace_id, name_key) index): the map iterates in it.
  competitorNames: 'SELECT id, name FROM competitors WHERE workspace_id = ? ORDER BY name_key',
};

/**
 * The answers, newest first, by keyset on (collected_ms, id) descending, or in update order by
 * keyset on (updated_at, id) ascending: a page costs its own rows, however deep. A download reads
 * chunk after chunk the same way, each a statement of its own, rather than through a cursor: a
 * cursor would hold a pool connection and an open transaction (holding back vacuum) for as long as
 * a slow client takes, and the interface promises nothing stays open.
 */
export function createPostgresAnswerStore(db: Queryable): AnswerStore {
  function page(filter: AnswerFilter, limit: number, before?: AnswerPosition): Promise<AnswerRow[]> {
    return rows<AnswerRow>(db, filter.promptId === undefined ? STATEMENTS.page : STATEMENTS.pageOfPrompt, answerPageParams(filter, limit, before));
  }

  return {
    page,
    pageByUpdate(filter: AnswerUpdateFilter, limit: number, after?: AnswerUpdatePosition): Promise<AnswerRow[]> {
      const sql = filter.promptId === undefined ? STATEMENTS.pageByUpdate : STATEMENTS.pageOfPromptByUpdate;
      return rows<AnswerRow>(db, sql, answerUpdatePageParams(filter, limit, after));
    },
    get(workspaceId: string, id: string): Promise<AnswerRow | undefined> {
      return row<AnswerRow>(db, ANSWER_BY_ID, [id, workspaceId]);
    },
    async competitorNames(workspaceId: string): Promise<Map<string, string>> {
      const named = await rows<{ id: string; name: string }>(db, STATEMENTS.competitorNames, [workspaceId]);
      return new Map(named.map((c) => [c.id, c.name]));
    },
    all(filter: AnswerFilter, chunk = 500): AsyncGenerator<AnswerRow, void, undefined> {
      return answersInChunks(page, filter, chunk);
    },
  };
}
