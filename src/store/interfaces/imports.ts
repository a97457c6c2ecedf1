/** What an import changed. */
export interface ImportSummary {
  /** Records read (blank lines are not records). */
  records: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Records deleted by `delete` lines, with those deleted along (a prompt's answers). */
  deleted: number;
  /** Webhook events written to the outbox by status or stage changes. */
  events: number;
  /** Events an import without events (`events: false`) did not write; 0 otherwise. */
  events_suppressed: number;
}

/** How an import takes the database's write lock when another writer (another import) holds it. */
export interface WriteLockWait {
  /** false: refuse at once with DatabaseBusyError instead of waiting. Default true. */
  wait?: boolean;
  /** Called once, when the lock turns out to be taken and the import starts waiting for it. */
  onWaiting?: () => void;
}

/**
 * One record line of an import file, parsed and checked against its schema (`import-format/`): a
 * record of one of the types of `src/import-engine/import-record-types.ts`, or a `delete` line. Ids and
 * references are as written (the store lower-cases them).
 */
export interface ImportLine {
  /** 1-based line of the file. */
  line: number;
  record: Record<string, unknown> & { type: string; id: string };
}

export interface ImportRunOptions {
  /** False: write no webhook events (a backfill); the summary counts them as suppressed. */
  events: boolean;
  lock: WriteLockWait;
  /** The import's clock: answers it inserts or changes take their `updated_at` from it. */
  now: () => Date;
}

/** Imports, each a whole file in one write transaction. */
export interface ImportStore {
  /**
   * Applies every line of `lines` (batches in file order) to the workspace in one write
   * transaction: everything or nothing. Resolves with what changed; rejects with the ImportError
   * (`src/import-engine/import-error.ts`, `line N: field: problem`) of the lowest failing line, or with whatever
   * `lines` throws, and then leaves the database as it was. While another import holds the write
   * lock it waits its turn (or refuses at once with DatabaseBusyError, `options.lock`). The
   * workspace must exist.
   */
  run(workspaceId: string, lines: AsyncIterable<readonly ImportLine[]>, options: ImportRunOptions): Promise<ImportSummary>;
}
