import type { Statement } from 'better-sqlite3';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Db } from '../store/database.js';
import type { Store } from '../store/index.js';
import { createRecordIdStatements, inImportTransaction, openDeferredQueue, type DeferredQueue, type WriteLockWait } from '../store/import-ledger.js';
import { enqueueEvent, type EventType } from '../webhooks/outbox.js';
import type { EventPayloads } from '../../generated/events.js';
import { eventPayload } from '../events/payloads.js';
import { ImportError } from './import-error.js';
import type { ApplyContext, ImportSession, Outcome, RecordType, RecordWriter } from './record-type.js';
import { describeSchemaError, schemaValidator } from './schemas.js';
import { recordTypes } from './records/index.js';
import { readUtf8Lines } from './utf8-lines.js';
import { DELETE_SCHEMA, RecordRemovals } from './record-removal.js';
import type { ImportRecords } from '../../generated/import-format.js';
import { reportImportFinished } from './import-channel.js';

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
// References already checked in this import; cleared when full so memory stays bounded.
const VERIFIED_LIMIT = 10_000;
// Page cache while importing (negative = KiB): big inserts into random-key indexes stay in memory.
export const IMPORT_CACHE_SIZE = -65_536;
const REPLAY_PAGE = 500;
const TYPES = new Map(recordTypes.map((type) => [type.type, type]));

interface PendingReference {
  type: string;
  line: number;
  field: string;
}

interface TypeEntry {
  type: RecordType;
  validate: ValidateFunction;
  writer: RecordWriter<Record<string, unknown>>;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * One import inside its transaction: parses and validates each line, claims ids in `record_ids`,
 * checks references (forward ones are remembered by id, once, and settled at the end), hands the
 * record to its type's writer and counts outcomes.
 */
class ImportRun implements ImportSession {
  private readonly db: Db;
  private line = 0;
  private readonly types = new Map<string, TypeEntry>();
  private readonly revisions = new Map<string, number>();
  private readonly verified = new Map<string, string>();
  private readonly pending = new Map<string, PendingReference>();
  private readonly summary: ImportSummary = { records: 0, inserted: 0, updated: 0, unchanged: 0, deleted: 0, events: 0, events_suppressed: 0 };
  private readonly claim: Statement;
  private readonly owner: Statement;
  private readonly release: Statement;
  private removals: RecordRemovals | undefined;
  private validateDelete: ValidateFunction<ImportRecords['delete']> | undefined;
  private deferred: DeferredQueue | undefined;
  private deferredCount = 0;
  private readonly ctx: ApplyContext & { line: number; isNew: boolean; finalPass: boolean };

  constructor(
    private readonly store: Store,
    readonly workspaceId: string,
    eventsOn: boolean,
    readonly now: () => Date,
  ) {
    this.db = store.db;
    ({ claim: this.claim, owner: this.owner, release: this.release } = createRecordIdStatements(this.db));
    const fail = (field: string, problem: string): never => {
      throw new ImportError(this.ctx.line, field, problem);
    };
    const emit = <E extends EventType>(type: E, payload: () => EventPayloads[E]): void => {
      if (!eventsOn) {
        this.summary.events_suppressed += 1;
        return;
      }
      enqueueEvent(this.db, { workspaceId, type, data: payload() });
      this.summary.events += 1;
    };
    const emitAtEnd = (type: EventType, id: string): void => {
      if (!eventsOn) {
        this.summary.events_suppressed += 1;
        return;
      }
      this.queue().insertEvent.run(this.ctx.line, id, type);
      this.deferredCount += 1;
    };
    this.ctx = { line: 0, isNew: false, finalPass: false, eventsOn, fail, emit, emitAtEnd };
  }

  private queue(): DeferredQueue {
    if (this.ctx.finalPass) throw new Error('a record may not wait twice');
    this.deferred ??= openDeferredQueue(this.db);
    return this.deferred;
  }

  /**
   * The validator and writer of a record type, made on its first record: a file of four types
   * compiles four schemas, not every schema of the format.
   */
  private typeEntry(name: string): TypeEntry | undefined {
    let entry = this.types.get(name);
    if (!entry) {
      const type = TYPES.get(name);
      if (!type) return undefined;
      entry = { type, validate: schemaValidator(type.schema), writer: type.open(this.db, this) };
      this.types.set(name, entry);
    }
    return entry;
  }

  revision(type: string): number {
    return this.revisions.get(type) ?? 0;
  }

  private fail(field: string, problem: string): never {
    throw new ImportError(this.line, field, problem);
  }

  /** One physical line of the file (without its newline). */
  feed(raw: string): void {
    this.line += 1;
    let text = raw;
    if (text.length === 0) return;
    if (text.charCodeAt(text.length - 1) === 13) text = text.slice(0, -1);
    if (this.line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      if (/^\s*$/.test(text)) return;
      this.fail('-', `is not valid JSON (${(err as Error).message})`);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) this.fail('-', 'must be a JSON object');
    const record = value as Record<string, unknown>;
    const typeName = record.type;
    if (typeName === undefined) this.fail('type', 'is required');
    if (typeName === 'delete') {
      this.feedDelete(record, text);
      return;
    }
    const entry = typeof typeName === 'string' ? this.typeEntry(typeName) : undefined;
    if (!entry) this.fail('type', `${shown(typeName)} is not one of ${[...TYPES.keys()].join(', ')}`);
    if (!entry.validate(record)) {
      const { field, problem } = describeSchemaError(entry.validate.errors![0]!);
      this.fail(field, problem);
    }
    this.summary.records += 1;
    const id = (record.id as string).toLowerCase();
    record.id = id;
    const isNew = this.claimId(id, entry.type.type);
    for (const ref of entry.type.references) this.checkReference(record, ref.field, ref.type);
    if (this.deferredCount > 0 && this.deferred!.has.get(id) !== undefined) {
      // An earlier line with this id is waiting for the end; keep the file's order for it.
      this.defer(id, text);
      return;
    }
    this.ctx.line = this.line;
    this.ctx.isNew = isNew;
    const outcome = entry.writer.apply(record, this.ctx);
    if (outcome === 'deferred') this.defer(id, text);
    else this.count(entry.type.type, outcome);
  }

  /** A `delete` line: checked now, applied in file order (after earlier lines of the same id that wait). */
  private feedDelete(record: Record<string, unknown>, text: string): void {
    this.validateDelete ??= schemaValidator(DELETE_SCHEMA);
    if (!this.validateDelete(record)) {
      const { field, problem } = describeSchemaError(this.validateDelete.errors![0]!);
      this.fail(field, problem);
    }
    this.summary.records += 1;
    const { record_type: type, id } = record;
    const lowered = id.toLowerCase();
    if (this.deferredCount > 0 && this.deferred!.has.get(lowered) !== undefined) {
      this.defer(lowered, text);
      return;
    }
    this.ctx.line = this.line;
    this.applyDelete(type, lowered);
  }

  private applyDelete(type: string, id: string): void {
    const row = this.owner.get(id) as [string, string] | undefined;
    if (!row || row[0] !== this.workspaceId) this.ctx.fail('id', `no ${type} with id ${id} in this workspace`);
    if (row[1] !== type) this.ctx.fail('record_type', `${id} is a ${row[1]} record, not a ${type}`);
    this.removals ??= new RecordRemovals(this.db, (name) => this.typeEntry(name)!.writer, (name, gone) => {
      this.release.run(gone);
      this.verified.delete(gone);
      this.revisions.set(name, this.revision(name) + 1);
    });
    this.summary.deleted += this.removals.delete(type, id, this.ctx);
  }

  private count(type: string, outcome: Outcome): void {
    this.summary[outcome] += 1;
    if (outcome !== 'unchanged') this.revisions.set(type, this.revision(type) + 1);
  }

  /** Registers the id for this workspace and type; true when it is new. */
  private claimId(id: string, type: string): boolean {
    if (this.claim.run(id, this.workspaceId, type).changes === 1) {
      if (this.pending.size > 0) {
        const waiting = this.pending.get(id);
        if (waiting) {
          this.pending.delete(id);
          if (waiting.type !== type) throw new ImportError(waiting.line, waiting.field, `refers to a ${type}, not a ${waiting.type}`);
        }
      }
      return true;
    }
    const [workspace, existing] = this.owner.get(id) as [string, string];
    if (workspace !== this.workspaceId) this.fail('id', 'is already used by a record of another workspace');
    if (existing !== type) this.fail('id', `is already used by a ${existing} record`);
    return false;
  }

  private checkReference(record: Record<string, unknown>, field: string, type: string): void {
    const value = record[field];
    if (typeof value === 'string') {
      record[field] = this.checkId(value.toLowerCase(), type, field);
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) value[i] = this.checkId((value[i] as string).toLowerCase(), type, `${field}[${i}]`);
    }
  }

  private checkId(id: string, type: string, field: string): string {
    if (this.verified.get(id) === type) return id;
    const row = this.owner.get(id) as [string, string] | undefined;
    if (!row) {
      // Not defined yet: a later line may define it. Remember the first reference only.
      const waiting = this.pending.get(id);
      if (!waiting) this.pending.set(id, { type, line: this.line, field });
      else if (waiting.type !== type) this.fail(field, `refers to a ${type}, but line ${waiting.line} refers to it as a ${waiting.type}`);
      return id;
    }
    if (row[0] !== this.workspaceId) this.fail(field, `refers to a record of another workspace`);
    if (row[1] !== type) this.fail(field, `refers to a ${row[1]}, not a ${type}`);
    if (this.verified.size >= VERIFIED_LIMIT) this.verified.clear();
    this.verified.set(id, type);
    return id;
  }

  private defer(id: string, text: string): void {
    this.queue().insert.run(this.line, id, text);
    this.deferredCount += 1;
  }

  /** Applies the records (and writes the events) that waited for the end of the file, in file order. */
  private replay(): void {
    if (!this.deferred) return;
    this.ctx.finalPass = true;
    this.ctx.isNew = false;
    let after = 0;
    for (;;) {
      const rows = this.deferred.page.all(after, REPLAY_PAGE) as [number, number, string, string, EventType | null][];
      if (rows.length === 0) break;
      for (const [seq, line, id, text, event] of rows) {
        after = seq;
        this.ctx.line = line;
        if (event !== null) {
          this.ctx.emit(event, () => eventPayload(this.store, event, this.workspaceId, id));
          continue;
        }
        const record = JSON.parse(text) as Record<string, unknown>;
        if (record.type === 'delete') {
          this.applyDelete(record.record_type as string, (record.id as string).toLowerCase());
          continue;
        }
        const entry = this.types.get(record.type as string)!;
        record.id = (record.id as string).toLowerCase();
        for (const ref of entry.type.references) {
          const value = record[ref.field];
          if (typeof value === 'string') record[ref.field] = value.toLowerCase();
          else if (Array.isArray(value)) record[ref.field] = value.map((v) => (v as string).toLowerCase());
        }
        const outcome = entry.writer.apply(record, this.ctx);
        this.count(entry.type.type, outcome as Outcome);
      }
    }
    this.deferred.drop();
    this.deferred = undefined;
  }

  /** Settles everything that waited for the end; the error with the lowest line wins. */
  finish(): ImportSummary {
    const unresolved = this.pending.entries().next();
    const firstUnresolved = unresolved.done
      ? undefined
      : new ImportError(unresolved.value[1].line, unresolved.value[1].field, `no ${unresolved.value[1].type} with id ${unresolved.value[0]} in this workspace`);
    try {
      this.replay();
    } catch (err) {
      if (err instanceof ImportError && firstUnresolved && firstUnresolved.line < err.line) throw firstUnresolved;
      throw err;
    }
    if (firstUnresolved) throw firstUnresolved;
    for (const entry of this.types.values()) entry.writer.flush?.();
    this.removals?.settle((id) => this.owner.get(id) !== undefined);
    return this.summary;
  }
}

/** Runs one import in one write transaction: everything or nothing. */
async function runImport(
  store: Store,
  workspaceId: string,
  options: ImportOptions,
  body: (run: ImportRun) => Promise<void> | void,
): Promise<ImportSummary> {
  const { db } = store;
  if (!store.accounts.getWorkspace(workspaceId)) throw new Error(`workspace ${workspaceId} does not exist`);
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const summary = await inImportTransaction(db, IMPORT_CACHE_SIZE, async () => {
      const run = new ImportRun(store, workspaceId, options.events ?? true, options.now ?? (() => new Date()));
      await body(run);
      const result = run.finish();
      // Downloads take their ETag from this version: a record with any outcome but `unchanged`
      // moves it, in this transaction, so a tag can never outlive the data it was made from.
      if (result.records > result.unchanged) store.dataVersions.raise(workspaceId);
      return result;
    }, options.lock);
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
 * it (see `options.lock`). The import holds this connection's transaction until it settles: do
 * not use the same connection for other writes meanwhile.
 */
export function importNdjson(
  store: Store,
  workspaceId: string,
  input: NodeJS.ReadableStream | AsyncIterable<string | Buffer>,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const maxLineLength = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  return runImport(store, workspaceId, options, (run) => readUtf8Lines(input as AsyncIterable<string | Buffer>, maxLineLength, (line) => run.feed(line)));
}

/** Imports lines already in memory (tests, generated demo data); same rules as importNdjson. */
export function importLines(
  store: Store,
  workspaceId: string,
  lines: Iterable<string>,
  options: Pick<ImportOptions, 'events' | 'now'> = {},
): Promise<ImportSummary> {
  return runImport(store, workspaceId, options, (run) => {
    for (const line of lines) run.feed(line);
  });
}
