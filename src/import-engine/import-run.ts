import type { EventType } from '../../generated/events.js';
import type { ImportLine, ImportSummary } from '../store/interfaces/imports.js';
import { ImportError } from './import-error.js';
import type { DeferredItem, ImportIo } from './import-io.js';
import type { ApplyContext, ImportSession, Outcome, RecordType, RecordWriter } from './record-type.js';
import { recordTypes } from './records/index.js';
import type { ImportRecords } from '../../generated/import-format.js';
import { RecordRemovals, type PendingCheck } from './record-removal.js';

// References already checked in this import; cleared when full so memory stays bounded.
const VERIFIED_LIMIT = 10_000;
const TYPES = new Map<string, RecordType>(recordTypes.map((type) => [type.type, type as RecordType]));

interface PendingReference {
  type: string;
  line: number;
  field: string;
}

interface TypeEntry {
  type: RecordType;
  writer: RecordWriter<Record<string, unknown>>;
}

/** What a database does at the end of an import, between the steps the rules fix. */
export interface FinishSteps {
  /** Applies every waiting item, in file order, through `ImportRun.replay`. */
  replay(): Promise<void> | void;
  /** Called after the writers' last flush, before deletions are settled: the database may read what settling asks. */
  beforeSettle?(checks: readonly PendingCheck[]): Promise<void> | void;
}

/** The record type of `name`; a line's type has been checked against the format before it gets here. */
export function recordType(name: string): RecordType {
  const type = TYPES.get(name);
  if (!type) throw new Error(`no writer for record type ${name}`);
  return type;
}

/**
 * One import inside its transaction, the same rules in every database: takes each checked line,
 * claims ids in the ledger, checks references (forward ones are remembered by id, once, and settled
 * at the end), hands the record to its type's writer and counts outcomes. All its I/O goes through
 * `io`, synchronously; a database that reads ahead gives it what a batch of lines needs first.
 */
export class ImportRun implements ImportSession {
  private line = 0;
  private readonly types = new Map<string, TypeEntry>();
  private readonly revisions = new Map<string, number>();
  private readonly verified = new Map<string, string>();
  private readonly pending = new Map<string, PendingReference>();
  private readonly summary: ImportSummary = { records: 0, inserted: 0, updated: 0, unchanged: 0, deleted: 0, events: 0, events_suppressed: 0 };
  private removals: RecordRemovals | undefined;
  private deferredCount = 0;
  private readonly ctx: ApplyContext & { line: number; isNew: boolean; finalPass: boolean };

  constructor(
    private readonly io: ImportIo,
    readonly workspaceId: string,
    eventsOn: boolean,
    readonly now: () => Date,
  ) {
    const fail = (field: string, problem: string): never => {
      throw new ImportError(this.ctx.line, field, problem);
    };
    const emit = (type: EventType, id: string): void => {
      if (!eventsOn) {
        this.summary.events_suppressed += 1;
        return;
      }
      this.io.outbox.write(type, id, this.now());
      this.summary.events += 1;
    };
    const emitAtEnd = (type: EventType, id: string): void => {
      if (!eventsOn) {
        this.summary.events_suppressed += 1;
        return;
      }
      this.waitingQueue().addEvent(this.ctx.line, id, type);
      this.deferredCount += 1;
    };
    this.ctx = { line: 0, isNew: false, finalPass: false, eventsOn, fail, emit, emitAtEnd };
  }

  /** Whether anything waits for the end of the file. */
  get waiting(): boolean {
    return this.deferredCount > 0;
  }

  private waitingQueue(): ImportIo['queue'] {
    if (this.ctx.finalPass) throw new Error('a record may not wait twice');
    return this.io.queue;
  }

  /** The writer of a record type, made on its first record: a file of four types makes four writers. */
  private typeEntry(name: string): TypeEntry {
    let entry = this.types.get(name);
    if (!entry) {
      const type = recordType(name);
      entry = { type, writer: type.open(this.io.records, this) };
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

  /** One checked line of the file (its record's schema already holds). */
  feed(input: ImportLine): void {
    this.line = input.line;
    const record = input.record;
    this.summary.records += 1;
    if (record.type === 'delete') {
      this.feedDelete(record as unknown as ImportRecords['delete']);
      return;
    }
    const entry = this.typeEntry(record.type);
    const id = record.id.toLowerCase();
    record.id = id;
    const isNew = this.claimId(id, entry.type.type);
    for (const ref of entry.type.references) this.checkReference(record, ref.field, ref.type);
    if (this.deferredCount > 0 && this.io.queue.has(id)) {
      // An earlier line with this id is waiting for the end; keep the file's order for it.
      this.defer(id, record);
      return;
    }
    this.ctx.line = this.line;
    this.ctx.isNew = isNew;
    const outcome = entry.writer.apply(record, this.ctx);
    if (outcome === 'deferred') this.defer(id, record);
    else this.count(entry.type.type, outcome);
  }

  /** A `delete` line: applied in file order (after earlier lines of the same id that wait). */
  private feedDelete(record: ImportRecords['delete']): void {
    const lowered = record.id.toLowerCase();
    if (this.deferredCount > 0 && this.io.queue.has(lowered)) {
      this.defer(lowered, record);
      return;
    }
    this.ctx.line = this.line;
    this.applyDelete(record.record_type, lowered);
  }

  private applyDelete(type: string, id: string): void {
    const row = this.io.ledger.owner(id);
    if (!row || row[0] !== this.workspaceId) this.ctx.fail('id', `no ${type} with id ${id} in this workspace`);
    if (row[1] !== type) this.ctx.fail('record_type', `${id} is a ${row[1]} record, not a ${type}`);
    this.removals ??= new RecordRemovals(this.io.removal, (name) => this.typeEntry(name).writer, (name, gone) => {
      this.io.ledger.release(gone);
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
    if (this.io.ledger.claim(id, this.workspaceId, type)) {
      if (this.pending.size > 0) {
        const waiting = this.pending.get(id);
        if (waiting) {
          this.pending.delete(id);
          if (waiting.type !== type) throw new ImportError(waiting.line, waiting.field, `refers to a ${type}, not a ${waiting.type}`);
        }
      }
      return true;
    }
    const [workspace, existing] = this.io.ledger.owner(id)!;
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
    const row = this.io.ledger.owner(id);
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

  private defer(id: string, record: object): void {
    this.waitingQueue().add(this.line, id, JSON.stringify(record));
    this.deferredCount += 1;
  }

  /** Applies one item that waited for the end of the file (records and events, in file order). */
  replay(item: DeferredItem): void {
    this.ctx.finalPass = true;
    this.ctx.isNew = false;
    this.ctx.line = item.line;
    if (item.event !== null) {
      this.ctx.emit(item.event, item.id);
      return;
    }
    const record = JSON.parse(item.text) as Record<string, unknown>;
    if (record.type === 'delete') {
      this.applyDelete(record.record_type as string, (record.id as string).toLowerCase());
      return;
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

  /** Settles everything that waited for the end; the error with the lowest line wins. */
  async finish(steps: FinishSteps): Promise<ImportSummary> {
    const unresolved = this.pending.entries().next();
    const firstUnresolved = unresolved.done
      ? undefined
      : new ImportError(unresolved.value[1].line, unresolved.value[1].field, `no ${unresolved.value[1].type} with id ${unresolved.value[0]} in this workspace`);
    if (this.deferredCount > 0) {
      try {
        await steps.replay();
      } catch (err) {
        if (err instanceof ImportError && firstUnresolved && firstUnresolved.line < err.line) throw firstUnresolved;
        throw err;
      }
    }
    if (firstUnresolved) throw firstUnresolved;
    for (const entry of this.types.values()) entry.writer.flush?.();
    if (this.removals) {
      await steps.beforeSettle?.(this.removals.checks);
      this.removals.settle((id) => this.io.ledger.owner(id) !== undefined);
    }
    return this.summary;
  }
}
