import type { AnswerFilter, AnswerPosition, AnswerRow, AnswerStore } from '../interfaces/visibility-answers.js';
import { ANSWER_BY_ID, ANSWER_COLUMNS, ANSWER_ORDER, ANSWER_WINDOW, answerPageParams, answersInChunks } from '../sql/visibility-answers.js';
import type { PostgresPool } from './pool.js';
import { row, rows } from './query.js';

// Absent filters are NULL, as in `../sqlite/visibility-answers.ts` (cast where first tested:
// PostgreSQL cannot tell the type of a bare `$n IS NULL`); the prompt filter has its own statement
// so that its index (prompt_id, collected_ms, id) is the one walked.
const OPTIONAL = `(@platform::text IS NULL OR s.platform = @platform)
  AND (@mentioned::integer IS NULL OR s.mentioned = @mentioned) AND (@cited::integer IS NULL OR s.cited = @cited)`;

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
export function createPostgresAnswerStore(pool: PostgresPool): AnswerStore {
  function page(filter: AnswerFilter, limit: number, before?: AnswerPosition): Promise<AnswerRow[]> {
    return rows<AnswerRow>(pool, filter.promptId === undefined ? STATEMENTS.page : STATEMENTS.pageOfPrompt, answerPageParams(filter, limit, before));
  }

  return {
    page,
    get(workspaceId: string, id: string): Promise<AnswerRow | undefined> {
      return row<AnswerRow>(pool, ANSWER_BY_ID, [id, workspaceId]);
    },
    async competitorNames(workspaceId: string): Promise<Map<string, string>> {
      const named = await rows<{ id: string; name: string }>(pool, STATEMENTS.competitorNames, [workspaceId]);
      return new Map(named.map((c) => [c.id, c.name]));
    },
    all(filter: AnswerFilter, chunk = 500): AsyncGenerator<AnswerRow, void, undefined> {
      return answersInChunks(page, filter, chunk);
    },
  };
}
