import { ImportError } from './import-error.js';
import type { RemovalIo } from './import-io.js';
import type { ApplyContext, RecordType, RecordWriter } from './record-type.js';
import { recordTypes } from './records/index.js';

// Records that refer to one are read and deleted this many at a time, so memory stays bounded.
const CASCADE_PAGE = 500;

export interface Referrer {
  type: RecordType;
  field: string;
  cascade: boolean;
}

/** For each record type, the record types whose reference fields point at it. */
const REFERRERS = new Map<string, Referrer[]>();
for (const type of recordTypes as readonly RecordType[]) {
  for (const ref of type.references) {
    const list = REFERRERS.get(ref.type) ?? [];
    list.push({ type, field: ref.field, cascade: ref.cascade ?? false });
    REFERRERS.set(ref.type, list);
  }
}

/** The record types whose reference fields point at records of `type`. */
export function referrersOf(type: string): readonly Referrer[] {
  return REFERRERS.get(type) ?? [];
}

/** A deletion whose referrers are checked after the last line. */
export interface PendingCheck {
  line: number;
  type: string;
  id: string;
}

/**
 * The deletions of one import. A deletion removes the record (through its writer's `remove`, which
 * takes its analytics out of the rollups, or from its table), first the records that cascade with
 * it, and frees its id. Whether something still refers to a deleted record is settled after the
 * last line, once the whole file is applied: a later line may delete or re-point the referrers.
 */
export class RecordRemovals {
  readonly checks: PendingCheck[] = [];

  constructor(
    private readonly io: RemovalIo,
    private readonly writerOf: (type: string) => RecordWriter<Record<string, unknown>>,
    /** Frees the id of a deleted record (and tells the import a record of its type changed). */
    private readonly forget: (type: string, id: string) => void,
  ) {}

  /** Deletes record `id` of `type` (stored, of this workspace), and what cascades with it; returns how many records went. */
  delete(type: string, id: string, ctx: ApplyContext): number {
    let removed = 0;
    const referrers = referrersOf(type);
    for (const referrer of referrers) {
      if (!referrer.cascade) continue;
      for (;;) {
        const ids = this.io.referrers(referrer.type.table!, referrer.field, id, CASCADE_PAGE);
        if (ids.length === 0) break;
        for (const dependent of ids) removed += this.delete(referrer.type.type, dependent, ctx);
      }
    }
    const writer = this.writerOf(type);
    if (writer.remove) writer.remove(id, ctx);
    else this.io.remove(tableOf(type), id);
    this.forget(type, id);
    if (referrers.length > 0 || writer.referredBy) this.checks.push({ line: ctx.line, type, id });
    return removed + 1;
  }

  /**
   * After the last line: a deleted record that was not imported again and is still referred to
   * fails the import at the line that deleted it.
   */
  settle(exists: (id: string) => boolean): void {
    for (const { line, type, id } of this.checks) {
      if (exists(id)) continue;
      const referrer = this.referrerOf(type, id);
      if (referrer) throw new ImportError(line, 'id', `${type} ${id} is still referred to by ${referrer}: delete it or change it in the same file`);
    }
  }

  private referrerOf(type: string, id: string): string | undefined {
    for (const referrer of referrersOf(type)) {
      const [first] = this.io.referrers(referrer.type.table!, referrer.field, id, 1);
      if (first !== undefined) return `${referrer.type.type} ${first} (${referrer.field})`;
    }
    return this.writerOf(type).referredBy?.(id);
  }
}

/** The table of a record type that `delete` lines may name. */
function tableOf(type: string): string {
  const table = recordTypes.find((t) => t.type === type)?.table;
  if (table === undefined) throw new Error(`${type} records cannot be deleted`);
  return table;
}
