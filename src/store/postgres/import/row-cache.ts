// What one batch of an import knows of a table: the rows read for it before it was applied, and the
// net changes its lines made since the last write. The import's rules read and write through these
// synchronously (`../../../import-engine/record-io.ts`); `batch-io.ts` fills them and writes them out.

/** A row deleted by the batch. */
export const GONE = Symbol('gone');

export interface PendingWrite<Row> {
  row: Row;
  /** No row was stored when the batch first wrote it: written as an insert (a prompt then takes its answers' newest time). */
  inserted: boolean;
}

/**
 * The rows of one table by id. A read of an id the batch did not read beforehand is a bug of the
 * read plan (`read-plan.ts`), never a missing row: it throws rather than answer "none". A
 * `complete` cache holds every row of the workspace for the whole import (competitors), so an id it
 * does not hold has no row.
 */
export class RowCache<Row> {
  private readonly known = new Map<string, Row | null>();
  readonly pending = new Map<string, PendingWrite<Row> | typeof GONE>();
  /** Ids the batch knows the database to hold now (read, or written since); any other id it read has no row. */
  private readonly inTable = new Set<string>();

  constructor(
    readonly table: string,
    private readonly complete = false,
  ) {}

  stored(id: string): Row | undefined {
    const row = this.known.get(id);
    if (row === undefined) {
      if (this.complete) return undefined;
      throw new Error(`the import did not read ${this.table} ${id} before the lines that need it`);
    }
    return row ?? undefined;
  }

  /** Whether the batch has read (or written) this id. */
  knows(id: string): boolean {
    return this.known.has(id);
  }

  /** A row as read from the database (null: none), unless the batch has written it since. */
  load(id: string, row: Row | null): void {
    if (this.pending.has(id)) return;
    this.known.set(id, row);
    if (row !== null) this.inTable.add(id);
  }

  /** Whether the database holds a row of this id now, as far as the batch read or wrote it. */
  inDatabase(id: string): boolean {
    return this.inTable.has(id);
  }

  write(id: string, row: Row, inserted: boolean): void {
    this.known.set(id, row);
    const before = this.pending.get(id);
    this.pending.set(id, { row, inserted: inserted || (before !== undefined && before !== GONE && before.inserted) });
  }

  /** Replaces a row the batch holds without writing it (the database is told separately). */
  patch(id: string, row: Row): void {
    this.known.set(id, row);
    const before = this.pending.get(id);
    if (before !== undefined && before !== GONE) before.row = row;
  }

  remove(id: string): void {
    this.known.set(id, null);
    this.pending.set(id, GONE);
  }

  /** Every row the cache holds now, by id. */
  *entries(): Generator<[string, Row]> {
    for (const [id, row] of this.known) if (row !== null) yield [id, row];
  }

  /** After the pending changes are written. */
  written(): void {
    for (const [id, write] of this.pending) {
      if (write === GONE) this.inTable.delete(id);
      else this.inTable.add(id);
    }
    this.pending.clear();
  }

  /** After a batch: what was read goes (the database has it), unless the cache holds the whole workspace. */
  forget(): void {
    if (this.complete) return;
    this.known.clear();
    this.inTable.clear();
  }
}

/** The id ledger as the batch knows it: owners read beforehand, claims and releases since the last write. */
export class LedgerCache {
  private readonly known = new Map<string, readonly [string, string] | null>();
  /** id → its new owner, or null when released. */
  readonly pending = new Map<string, readonly [string, string] | null>();
  /** Ids the ledger's table holds now, as far as the batch read or wrote them. */
  private readonly inTable = new Set<string>();

  owner(id: string): readonly [string, string] | undefined {
    const owner = this.known.get(id);
    if (owner === undefined) throw new Error(`the import did not read the owner of ${id} before the lines that need it`);
    return owner ?? undefined;
  }

  load(id: string, owner: readonly [string, string] | null): void {
    if (this.pending.has(id)) return;
    this.known.set(id, owner);
    if (owner !== null) this.inTable.add(id);
  }

  /** Whether the table holds a row of this id now, as far as the batch read or wrote it. */
  inDatabase(id: string): boolean {
    return this.inTable.has(id);
  }

  claim(id: string, workspaceId: string, type: string): boolean {
    if (this.owner(id) !== undefined) return false;
    const owner = [workspaceId, type] as const;
    this.known.set(id, owner);
    this.pending.set(id, owner);
    return true;
  }

  release(id: string): void {
    this.known.set(id, null);
    this.pending.set(id, null);
  }

  written(): void {
    for (const [id, owner] of this.pending) {
      if (owner === null) this.inTable.delete(id);
      else this.inTable.add(id);
    }
    this.pending.clear();
  }

  forget(): void {
    this.known.clear();
    this.inTable.clear();
  }
}
