import type pg from 'pg';
import type { ImportLine, ImportRunOptions, ImportStore, ImportSummary, WriteLockWait } from '../../interfaces/imports.js';
import { DatabaseBusyError } from '../../errors.js';
import { ImportRun } from '../../../import-engine/import-run.js';
import type { PostgresPool } from '../pool.js';
import { PostgresImportIo } from './batch-io.js';
import { oneStatementAtATime } from './one-statement-at-a-time.js';

/** Held by an import for its whole transaction: imports take turns (keys are listed in ../migrations/README.md). */
const IMPORT_LOCK_KEY = 4242100;

/** How much an import holds in memory; the defaults suit the service, tests shrink them to reach every path. */
export interface PostgresImportBounds {
  /**
   * Lines applied between two reads and writes (default 2,000): each batch costs a fixed number of
   * statements, so larger batches cost fewer round trips, and memory holds one batch's rows.
   */
  batchLines: number;
  /** Changed days of the running totals summed in memory before they wait in a temporary table (default 100,000). */
  seriesInMemory: number;
}

const DEFAULT_BOUNDS: PostgresImportBounds = { batchLines: 2_000, seriesInMemory: 100_000 };

/**
 * Takes the import lock for the transaction on `client`: at once when free; otherwise refuses with
 * DatabaseBusyError (`lock.wait` false) or tells `lock.onWaiting` and waits for its turn, however
 * long the other import runs.
 */
async function takeImportLock(client: pg.PoolClient, lock: WriteLockWait): Promise<void> {
  const free = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS taken', [IMPORT_LOCK_KEY]);
  if (free.rows[0]!.taken) return;
  if (lock.wait === false) throw new DatabaseBusyError('another import is running');
  lock.onWaiting?.();
  await client.query('SELECT pg_advisory_xact_lock($1)', [IMPORT_LOCK_KEY]);
}

/**
 * The file's lines in batches of about `size`. Lines before a failing line are handed over before
 * its error, so the import reports whichever comes first in the file.
 */
async function* inBatches(lines: AsyncIterable<readonly ImportLine[]>, size: number): AsyncGenerator<ImportLine[], void> {
  let batch: ImportLine[] = [];
  try {
    for await (const chunk of lines) {
      batch.push(...chunk);
      if (batch.length >= size) {
        yield batch;
        batch = [];
      }
    }
  } catch (err) {
    if (batch.length > 0) yield batch;
    throw err;
  }
  if (batch.length > 0) yield batch;
}

/** Lines applied between two turns of the event loop while a write runs, so its next statement goes out without waiting for the batch. */
const LINES_PER_TURN = 64;

/** Applies a batch's lines; while a write runs, letting it go on every few lines. */
async function applyLines(run: ImportRun, batch: readonly ImportLine[], writeRunning: boolean): Promise<void> {
  for (let i = 0; i < batch.length; i += 1) {
    run.feed(batch[i]!);
    if (writeRunning && i % LINES_PER_TURN === LINES_PER_TURN - 1) await new Promise(setImmediate);
  }
}

/** One import on one connection, inside its transaction. */
async function importOn(
  client: pg.PoolClient,
  workspaceId: string,
  lines: AsyncIterable<readonly ImportLine[]>,
  options: ImportRunOptions,
  bounds: PostgresImportBounds,
): Promise<ImportSummary> {
  await takeImportLock(client, options.lock);
  const io = await PostgresImportIo.open(client, workspaceId, bounds.seriesInMemory);
  const run = new ImportRun(io, workspaceId, options.events, options.now);
  // The next batch is read from the file (parsed, checked) while the server writes this one, and
  // applied too when what it reads cannot be changed by that write (`io.readsAhead`).
  const batches = inBatches(lines, bounds.batchLines);
  let next = batches.next();
  let writing: Promise<void> | undefined;
  try {
    for (;;) {
      const { value: batch, done } = await next;
      if (done) break;
      const plan = io.plan(batch);
      if (writing && !io.readsAhead(plan)) {
        await writing;
        writing = undefined;
      }
      io.forget();
      await io.readPlanned(plan);
      await applyLines(run, batch, writing !== undefined);
      if (writing) await writing;
      writing = io.write();
      writing.catch(() => undefined);
      next = batches.next();
      next.catch(() => undefined);
    }
    if (writing) await writing;
  } catch (err) {
    // A write that failed went out before the lines that came after it: its error is the import's.
    if (writing) await writing;
    throw err;
  }
  io.forget();
  const summary = await run.finish({
    async replay() {
      for await (const page of io.queue.pages(client)) {
        await io.read(page);
        for (const item of page) {
          // An event's payload is read when it is written: first what the event shows, before this item changes it.
          if (io.changesPendingEvents(item)) await io.write();
          run.replay(item);
        }
        await io.write();
        io.forget();
      }
    },
    async beforeSettle(checks) {
      await io.write();
      await io.readForSettle(checks);
    },
  });
  await io.write();
  // Downloads take their ETag from this version: a record with any outcome but `unchanged` moves
  // it, in this transaction, so a tag can never outlive the data it was made from.
  if (summary.records > summary.unchanged) {
    await client.query(
      `INSERT INTO workspace_data_versions (workspace_id, version) VALUES ($1, 1)
       ON CONFLICT (workspace_id) DO UPDATE SET version = workspace_data_versions.version + 1`,
      [workspaceId],
    );
  }
  return summary;
}

/**
 * The imports of a PostgreSQL database, each a whole file in one transaction on one connection of
 * the pool: everything or nothing, the same rows, events and summary as SQLite's
 * (`../../sqlite/import/import-run.ts`), the same rules (`../../../import-engine/`), written a batch at a time.
 */
export function createPostgresImportStore(pool: PostgresPool, bounds: Partial<PostgresImportBounds> = {}): ImportStore {
  const held = { ...DEFAULT_BOUNDS, ...bounds };
  return {
    async run(workspaceId, lines, options) {
      const client = oneStatementAtATime(await pool.connect());
      try {
        await client.query('BEGIN');
        const summary = await importOn(client, workspaceId, lines, options, held);
        await client.query('COMMIT');
        client.release();
        return summary;
      } catch (err) {
        // A connection that cannot roll back is broken: it is closed rather than handed back.
        const broken = await client.query('ROLLBACK').then(
          () => undefined,
          (rollbackErr: unknown) => (rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr))),
        );
        client.release(broken);
        throw err;
      }
    },
  };
}
