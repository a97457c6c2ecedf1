import type { AnswerFilter, AnswerPosition, AnswerRow, AnswerStore } from '../interfaces/visibility-answers.js';
import { ANSWER_BY_ID, ANSWER_COLUMNS, ANSWER_ORDER, ANSWER_WINDOW, answerPageParams, answersInChunks } from '../answer-statements.js';
import { row, rows, type Queryable } from './query.js';

// Absent filters are NULL, as in `../sqlite/visibility-answers.ts` (cast where tested for NULL:
// PostgreSQL must know a parameter's type from its first use); the prompt filter has its own
// statement so that its index (prompt_id, collected_ms, id) is the one walked.
const OPTIONAL = `(CAST(@platform AS TEXT) IS NULL OR s.platform = @platform)
  AND (CAST(@mentioned AS INTEGER) IS NULL OR s.mentioned = @mentioned) AND (CAST(@cited AS INTEGER) IS NULL OR s.cited = @cited)`;

const STATEMENTS = {
  page: `SELECT ${ANSWER_COLUMNS} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
     WHERE s.workspace_id = @workspace_id AND ${ANSWER_WINDOW} AND ${OPTIONAL} ${ANSWER_ORDER}`,
  pageOfPrompt: `SELECT ${ANSWER_COLUMNS} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
     WHERE s.prompt_id = @prompt_id AND s.workspace_id = @workspace_id AND ${ANSWER_WINDOW} AND ${OPTIONAL} ${ANSWER_ORDER}`,
  // In the order SQLite reads them (its (workspace_id, name_key) index): the map iterates in it.
  competitorNames: 'SELECT id, name FROM competitors WHERE workspace_id = ? ORDER BY name_key',
};

/**
 * The answers, newest first, by keyset on (collected_ms, id) descending: a page costs its own rows,
 * however deep. A download reads chunk after chunk the same way, each a statement of its own, rather
 * than through a cursor: a cursor would hold a pool connection and an open transaction (holding
 * back vacuum) for as long as a slow client takes, and the interface promises nothing stays open.
 */
export function createPostgresAnswerStore(db: Queryable): AnswerStore {
  function page(filter: AnswerFilter, limit: number, before?: AnswerPosition): Promise<AnswerRow[]> {
    return rows<AnswerRow>(db, filter.promptId === undefined ? STATEMENTS.page : STATEMENTS.pageOfPrompt, answerPageParams(filter, limit, before));
  }

  return {
    page,
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
