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
  /** When the service last stored a change to the answer (RFC 3339, UTC, milliseconds). */
  updated_at: string;
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
  /** Only answers whose `updated_at` is strictly after this stored timestamp; null or absent: all. */
  updatedAfter?: string | null | undefined;
}

/** The filter of the list in update order: the collection window [fromMs, untilMs) is optional (null: any time). */
export type AnswerUpdateFilter = Omit<AnswerFilter, 'fromMs' | 'untilMs'> & { fromMs: number | null; untilMs: number | null };

/** Where a page of answers ends: (collected_ms, id) of its last answer, newest first. */
export type AnswerPosition = readonly [collectedMs: number, id: string];

/** Where a page of answers in update order ends: (updated_at, id) of its last answer, oldest change first. */
export type AnswerUpdatePosition = readonly [updatedAt: string, id: string];

/**
 * The answers, newest first, read by keyset on (collected_ms, id) descending; in update order
 * (incremental sync), by keyset on (updated_at, id) ascending.
 */
export interface AnswerStore {
  /** Up to `limit` matching answers before `before` (from the end of the window when absent), newest first. */
  page(filter: AnswerFilter, limit: number, before?: AnswerPosition): Promise<AnswerRow[]>;
  /** One page in update order (oldest change first, then id), after `after` when given. */
  pageByUpdate(filter: AnswerUpdateFilter, limit: number, after?: AnswerUpdatePosition): Promise<AnswerRow[]>;
  /**
   * Every matching answer, newest first, read `chunk` rows at a time. Nothing stays open between
   * chunks: a download may take as long as its client.
   */
  all(filter: AnswerFilter, chunk?: number): AsyncGenerator<AnswerRow, void, undefined>;
  get(workspaceId: string, id: string): Promise<AnswerRow | undefined>;
  /** id → name of every competitor the workspace tracks. */
  competitorNames(workspaceId: string): Promise<Map<string, string>>;
}
