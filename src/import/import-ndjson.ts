import type { Store } from '../store/index.js';
import type { ImportSummary, WriteLockWait } from '../store/interfaces/imports.js';
import { checkedLines } from './checked-lines.js';
import { readUtf8Lines } from './utf8-lines.js';
import { reportImportFinished } from './import-channel.js';

export type { ImportSummary };

export interface ImportOptions {
  /** A longer line fails the import instead of growing memory without bound. Default 16 Mi characters. */
  maxLineLength?: number;
  /** While another import holds the write lock: wait for it (the default, telling `onWaiting`) or refuse at once. */
  lock?: WriteLockWait;
  /** False: write no webhook events (a backfill); the summary counts them as suppressed. Default true. */
  events?: boolean;
  /** The import's clock: answers it inserts or changes take their `updated_at` from it. Default: the system clock. */
  now?: () => Date;
}

const DEFAULT_MAX_LINE_LENGTH = 16 * 1024 * 1024;

/** Runs one import in one write transaction of the store: everything or nothing. */
async function runImport(
  store: Store,
  workspaceId: string,
  lines: AsyncIterable<readonly string[]>,
  options: ImportOptions,
): Promise<ImportSummary> {
  if (!(await store.accounts.getWorkspace(workspaceId))) throw new Error(`workspace ${workspaceId} does not exist`);
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const summary = await store.imports.run(workspaceId, checkedLines(lines), { events: options.events ?? true, lock: options.lock ?? {}, now: options.now ?? (() => new Date()) });
    reportImportFinished({ outcome: 'committed', records: summary.records, seconds: seconds() });
    return summary;
  } catch (err) {
    reportImportFinished({ outcome: 'rejected', records: 0, seconds: seconds() });
    throw err;
  }
}

/**
 * Imports newline-delimited JSON from a stream, reading it chunk by chunk (memory does not grow
 * with the file). Fails with an ImportError (`line N: field: problem`) and leaves the database as
 * it was, or resolves with what changed. While another import holds the write lock it waits for
 * it (see `options.lock`). The import holds the store's write transaction until it settles: on
 * SQLite, do not use the same store for other writes meanwhile.
 */
export function importNdjson(
  store: Store,
  workspaceId: string,
  input: NodeJS.ReadableStream | AsyncIterable<string | Buffer>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  return runImport(store, workspaceId, readUtf8Lines(input as AsyncIterable<string | Buffer>, maxLineLength), options);
}

/** Imports lines already in memory (tests, generated demo data); same rules as importNdjson. */
export function importLines(
  store: Store,
  workspaceId: string,
  lines: Iterable<string>,
  options: Pick<ImportOptions, 'events' | 'now'> = {},
): Promise<ImportSummary> {
  return runImport(store, workspaceId, inBatches(lines), options);
}

const BATCH = 1_000;

/** Lines in memory as the stream of batches an import reads. */
async function* inBatches(lines: Iterable<string>): AsyncGenerator<string[]> {
  let batch: string[] = [];
  for (const line of lines) {
    batch.push(line);
    if (batch.length === BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
