import type { EventType } from '../../generated/events.js';
import type { SaveOutcome } from '../store/interfaces/saved-rows.js';
import { importRecordType, type ImportRecordType } from './import-record-types.js';
import type { RecordIo } from './record-io.js';

export type Outcome = SaveOutcome;

export interface ApplyContext {
  /** 1-based line of the record in the file. */
  readonly line: number;
  /**
   * True when the import has just claimed the id for this record, so no row can exist yet and
   * the writer may insert without looking. False on updates and on the end-of-file pass.
   */
  readonly isNew: boolean;
  /** True on the end-of-file pass over records that asked to wait; such a record may not wait again. */
  readonly finalPass: boolean;
  /** Rejects the record: the whole import fails with `line N: field: problem`. */
  fail(field: string, problem: string): never;
  /**
   * False when the import runs without events (`--no-events`, a backfill): `emit` and `emitAtEnd`
   * only count what they would have written, so nothing has to wait for the end of the file.
   */
  readonly eventsOn: boolean;
  /**
   * Writes the webhook event of record `id` to the outbox in the import's transaction (status and
   * stage changes), its payload the record as stored now.
   */
  emit(type: EventType, id: string): void;
  /**
   * Writes the event of record `id` after the last line is applied, so its payload sees the whole
   * file; later lines of the same id wait for it, so each event shows the record as it was then.
   */
  emitAtEnd(type: EventType, id: string): void;
}

/** What one import shares between the writers of different record types. */
export interface ImportSession {
  readonly workspaceId: string;
  /**
   * How many records of `type` this import has inserted or updated so far: a writer that caches
   * another type's rows (a name → id map) reloads when this moves.
   */
  revision(type: string): number;
  /** The import's clock (the system clock unless the caller gives one). */
  now(): Date;
}

export interface RecordWriter<R> {
  /**
   * Writes one validated record (ids already lower-cased, references already checked) and reports
   * what happened. Returns 'deferred' to be called again after the last line, when the record
   * depends on something only a later line can supply (a competitor named before it is defined).
   */
  apply(record: R, ctx: ApplyContext): Outcome | 'deferred';
  /** Writes whatever the writer batches (rollup deltas). Called before the import commits. */
  flush?(): void;
  /**
   * Deletes the stored record `id` (known to exist, of this type and workspace) with whatever is
   * derived from it (rollups). Without it, a deletion removes the row of the type's `table`.
   */
  remove?(id: string, ctx: ApplyContext): void;
  /**
   * What still refers to record `id` other than the reference fields of record types (a competitor
   * named by answers), described for an error message; undefined when nothing does.
   */
  referredBy?(id: string): string | undefined;
}

/**
 * One record type of the import format (`../import-record-types.ts`) with its writer, the same for
 * every database. Add a type by writing `records/<type>.ts` exporting one of these and a line in
 * `records/index.ts`, beside its entry in the format's list.
 */
export interface RecordType<R = Record<string, unknown>> extends ImportRecordType {
  /** Makes the writer of one import, over that import's tables; called once per import, inside its transaction. */
  open(io: RecordIo, session: ImportSession): RecordWriter<R>;
}

/** The format's declaration of record type `name` (schema, table, references), for its writer's RecordType. */
export function formatType(name: string): ImportRecordType {
  const type = importRecordType(name);
  if (!type) throw new Error(`the import format has no record type ${name}`);
  return type;
}
