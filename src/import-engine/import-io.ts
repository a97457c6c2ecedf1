// The I/O of one import beside its records' tables (`./record-io.ts`): the id ledger, the queue of
// what waits for the end of the file, the outbox and deletions. Synchronous, as each database
// gives it inside the import's transaction (see `./README.md`).
import type { EventType } from '../../generated/events.js';
import type { RecordIo } from './record-io.js';

/** The global id ledger (`record_ids`): one id, one type, one workspace. */
interface RecordIdLedger {
  /** Registers the id for this workspace and type unless some record holds it; true when it was free. */
  claim(id: string, workspaceId: string, type: string): boolean;
  /** The workspace and type of the record holding the id, if any. */
  owner(id: string): readonly [workspaceId: string, type: string] | undefined;
  /** Frees the id of a deleted record: importing it later makes a new record. */
  release(id: string): void;
}

/** A record, a deletion or an event that waits for the end of the file. */
export interface DeferredItem {
  line: number;
  id: string;
  /** The record as JSON (ids lower-cased); empty for an event. */
  text: string;
  event: EventType | null;
}

/** Records (and events) that wait for the end of the file, in file order. */
export interface DeferredQueue {
  add(line: number, id: string, text: string): void;
  addEvent(line: number, id: string, event: EventType): void;
  /** Whether anything of this id waits. */
  has(id: string): boolean;
}

/**
 * The outbox: an event written in the import's transaction, its payload the record as stored now,
 * its `timestamp` the import's clock (`at`).
 */
export interface EventOutbox {
  write(type: EventType, id: string, at: Date): void;
}

/** Deletions by `delete` lines, over the tables the record types declare. */
export interface RemovalIo {
  /** Deletes the row `id` of `table`. */
  remove(table: string, id: string): void;
  /** Up to `limit` ids of the rows of `table` whose `column` refers to `id`, smallest first. */
  referrers(table: string, column: string, id: string, limit: number): string[];
}

export interface ImportIo {
  records: RecordIo;
  removal: RemovalIo;
  ledger: RecordIdLedger;
  queue: DeferredQueue;
  outbox: EventOutbox;
}
