/** One answer (snapshot) as stored, with its prompt's text. */
export interface AnswerRow {
  id: string;
  prompt_id: string;
  prompt_text: string;
  platform: string;
  collected_ms: number;
  mentioned: number;
  cited: number;
  /** JSON array of competitor ids. */
  competitors: string;
  /** JSON array of {url, title}. */
  citations: string;
  answer: string;
}

export interface AnswerFilter {
  workspaceId: string;
  /** Instants [fromMs, untilMs). */
  fromMs: number;
  untilMs: number;
  promptId?: string | undefined;
  platform?: string | undefined;
  mentioned?: boolean | undefined;
  cited?: boolean | undefined;
}

/** Where a page of answers ends: (collected_ms, id) of its last answer, newest first. */
export type AnswerPosition = readonly [collectedMs: number, id: string];

/** The answers, newest first, read by keyset on (collected_ms, id) descending. */
export interface AnswerStore {
  /** Up to `limit` matching answers before `before` (from the end of the window when absent), newest first. */
  page(filter: AnswerFilter, limit: number, before?: AnswerPosition): Promise<AnswerRow[]>;
  /**
   * Every matching answer, newest first, read `chunk` rows at a time. Nothing stays open between
   * chunks: a download may take as long as its client.
   */
  all(filter: AnswerFilter, chunk?: number): AsyncGenerator<AnswerRow, void, undefined>;
  get(workspaceId: string, id: string): Promise<AnswerRow | undefined>;
  /** id → name of every competitor the workspace tracks. */
  competitorNames(workspaceId: string): Promise<Map<string, string>>;
}
