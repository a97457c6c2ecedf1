import type {
  AnswerFilter, AnswerPosition, AnswerRow, AnswerStore, AnswerUpdateFilter, AnswerUpdatePosition,
} from '../interfaces/visibility-answers.js';
import type { Db } from './database.js';
import { promised } from './promised.js';

/**
 * Where the first page in update order starts: just before the first millisecond after
 * `updated_after` (stored times have milliseconds, and every id sorts after ''), so the index seeks
 * straight to the first answer changed strictly after it, however many changed before; without a
 * bound, before every stored time.
 */
function firstPosition(updatedAfter: string | null): { after_updated_at: string; after_id: string } {
  return { after_updated_at: updatedAfter === null ? '' : new Date(Date.parse(updatedAfter) + 1).toISOString(), after_id: '' };
}

/**
 * The answers, newest first. Pages and export chunks are read by keyset on (collected_ms, id)
 * descending, which the time indexes serve backwards: a page costs its own rows, however deep.
 * In update order (incremental sync) pages are read by keyset on (updated_at, id) ascending, which
 * `snapshots_by_update` serves the same way.
 */
export function createAnswerStore(db: Db): AnswerStore {
  const columns = `s.id, s.prompt_id, p.text AS prompt_text, s.platform, s.collected_ms, s.mentioned, s.cited,
    s.competitors, s.citations, s.answer, s.updated_at`;
  // Absent filters are NULL, so one statement serves every combination; the prompt filter gets its
  // own statement because it changes which index SQLite should walk.
  const optional = `(@platform IS NULL OR s.platform = @platform)
    AND (@mentioned IS NULL OR s.mentioned = @mentioned) AND (@cited IS NULL OR s.cited = @cited)
    AND (@updated_after IS NULL OR s.updated_at > @updated_after)`;
  const window = '(s.collected_ms, s.id) < (@before_ms, @before_id) AND s.collected_ms >= @from_ms';
  const order = 'ORDER BY s.collected_ms DESC, s.id DESC LIMIT @limit';
  const updateWindow = `(s.updated_at, s.id) > (@after_updated_at, @after_id)
    AND (@from_ms IS NULL OR (s.collected_ms >= @from_ms AND s.collected_ms < @until_ms))`;
  const updateOrder = 'ORDER BY s.updated_at, s.id LIMIT @limit';
  const statements = {
    page: db.prepare(
      `SELECT ${columns} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
       WHERE s.workspace_id = @workspace_id AND ${window} AND ${optional} ${order}`,
    ),
    pageOfPrompt: db.prepare(
      `SELECT ${columns} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
       WHERE s.prompt_id = @prompt_id AND s.workspace_id = @workspace_id AND ${window} AND ${optional} ${order}`,
    ),
    pageByUpdate: db.prepare(
      `SELECT ${columns} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
       WHERE s.workspace_id = @workspace_id AND ${updateWindow} AND ${optional} ${updateOrder}`,
    ),
    pageOfPromptByUpdate: db.prepare(
      `SELECT ${columns} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id
       WHERE s.prompt_id = @prompt_id AND s.workspace_id = @workspace_id AND ${updateWindow} AND ${optional} ${updateOrder}`,
    ),
    get: db.prepare(`SELECT ${columns} FROM snapshots s JOIN prompts p ON p.id = s.prompt_id WHERE s.id = ? AND s.workspace_id = ?`),
    competitorNames: db.prepare('SELECT id, name FROM competitors WHERE workspace_id = ?').raw(),
  };

  /** The named parameters of the optional filters, absent ones as NULL. */
  const optionalParams = (filter: AnswerFilter | AnswerUpdateFilter) => ({
    workspace_id: filter.workspaceId,
    prompt_id: filter.promptId ?? null,
    platform: filter.platform ?? null,
    mentioned: filter.mentioned === undefined ? null : Number(filter.mentioned),
    cited: filter.cited === undefined ? null : Number(filter.cited),
    updated_after: filter.updatedAfter ?? null,
  });

  function page(filter: AnswerFilter, limit: number, before?: AnswerPosition): AnswerRow[] {
    const params = {
      ...optionalParams(filter),
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
    /** One page in update order (oldest change first, then id), after `after` when given. */
    pageByUpdate(filter: AnswerUpdateFilter, limit: number, after?: AnswerUpdatePosition): AnswerRow[] {
      const params = {
        ...optionalParams(filter),
        from_ms: filter.fromMs,
        until_ms: filter.untilMs,
        ...(after ? { after_updated_at: after[0], after_id: after[1] } : firstPosition(filter.updatedAfter ?? null)),
        limit,
      };
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
