import type { AnswerFilter, AnswerPosition, AnswerRow, AnswerStore } from '../interfaces/visibility-answers.js';
import type { Db } from './database.js';
import { promised } from './promised.js';

/**
 * The answers, newest first. Pages and export chunks are read by keyset on (collected_ms, id)
 * descending, which the time indexes serve backwards: a page costs its own rows, however deep.
 */
export function createAnswerStore(db: Db): AnswerStore {
  const columns = `s.id, s.prompt_id, p.text AS prompt_text, s.platform, s.collected_ms, s.mentioned, s.cited,
    s.competitors, s.citations, s.answer`;
  // Absent filters are NULL, so one statement serves every combination; the prompt filter gets its
  // own statement because it changes which index SQLite should walk.
  const optional = `(@platform IS NULL OR s.platform = @platform)
    AND (@mentioned IS NULL OR s.mentioned = @mentioned) AND (@cited IS NULL OR s.cited = @cited)`;
  const window = '(s.collected_ms, s.id) < (@before_ms, @before_id) AND s.collected_ms >= @from_ms';
  const order = 'ORDER BY s.collected_ms DESC, s.id DESC LIMIT @limit';
  const statements = {
    page: db.prepare(
      `SELECT ${columns} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
       WHERE s.workspace_id = @workspace_id AND ${window} AND ${optional} ${order}`,
    ),
    pageOfPrompt: db.prepare(
      `SELECT ${columns} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
       WHERE s.prompt_id = @prompt_id AND s.workspace_id = @workspace_id AND ${window} AND ${optional} ${order}`,
    ),
    get: db.prepare(`SELECT ${columns} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id WHERE s.id = ? AND s.workspace_id = ?`),
    competitorNames: db.prepare('SELECT id, name FROM competitors WHERE workspace_id = ?').raw(),
  };

  function page(filter: AnswerFilter, limit: number, before?: AnswerPosition): AnswerRow[] {
    const params = {
      workspace_id: filter.workspaceId,
      prompt_id: filter.promptId,
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
    async *all(filter: AnswerFilter, chunk = 500): AsyncGenerator<AnswerRow, void, undefined> {
      let before: AnswerPosition | undefined;
      for (;;) {
        const rows = await reads.page(filter, chunk, before);
        yield* rows;
        if (rows.length < chunk) return;
        const last = rows[rows.length - 1]!;
        before = [last.collected_ms, last.id];
      }
    },
  };
}
