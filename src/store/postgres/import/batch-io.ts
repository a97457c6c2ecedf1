import type pg from 'pg';
import type { DeferredItem, EventOutbox, ImportIo, RemovalIo } from '../../../import-engine/import-io.js';
import { SNAPSHOT_COLUMNS, type CompetitorRows, type IqRows, type RecordIo, type SnapshotRow, type SnapshotRows } from '../../../import-engine/record-io.js';
import { referrersOf, type PendingCheck } from '../../../import-engine/record-removal.js';
import { recordType } from '../../../import-engine/import-run.js';
import type { SavedRow, SavedRows } from '../../../import-engine/saved-rows.js';
import { COMPETITORS, PROMPTS } from '../../../import-engine/tables/visibility.js';
import { WORKSPACE_PLANS, WORKSPACE_PROFILES, type WorkspaceRow } from '../../../import-engine/tables/workspace.js';
import type { ImportLine } from '../../interfaces/imports.js';
import { IQ_TABLE } from '../../iq-rows.js';
import type { WholeRowTable } from '../../whole-row-saves.js';
import { enqueueEventsOn } from '../outbox.js';
import { PostgresCitedPageSink } from './cited-page-writes.js';
import { withPayloads, type PendingEvent } from './event-payloads.js';
import { GONE, LedgerCache, RowCache } from './row-cache.js';
import { PostgresRollupSink } from './rollup-writes.js';
import { copyRows, deleteRows, readColumnTypes, upsertRows, type ColumnTypes } from './table-writes.js';
import { PostgresWaitingQueue } from './waiting-queue.js';

const SNAPSHOT_PROMPT = SNAPSHOT_COLUMNS.indexOf('prompt_id');
const LEDGER_COLUMNS = ['id', 'workspace_id', 'type'];

/** The items for which `test` holds, then the others. */
function partition<T>(items: readonly T[], test: (item: T) => boolean): [T[], T[]] {
  const yes: T[] = [];
  const no: T[] = [];
  for (const item of items) (test(item) ? yes : no).push(item);
  return [yes, no];
}

/** What applying a batch of items will read, gathered before it is applied. */
export interface ReadPlan {
  owners: Set<string>;
  /** Table → ids of the rows to read. */
  rows: Map<string, Set<string>>;
  /** `table column` → the ids whose referrers in that column to read (a deletion's cascade). */
  referrers: Map<string, Set<string>>;
  /** Ids to look for among what waits for the end of the file. */
  waiting: Set<string>;
  /** Whether any item is a deletion. */
  deletes: boolean;
}

function add<K>(map: Map<K, Set<string>>, key: K, id: string): void {
  let ids = map.get(key);
  if (!ids) map.set(key, (ids = new Set()));
  ids.add(id);
}

/** The one row of the workspace in a table keyed by workspace, read once per import. */
class WorkspaceRowCache implements WorkspaceRow {
  row: SavedRow | undefined;
  changed = false;

  get(): SavedRow | undefined {
    return this.row;
  }

  put(row: SavedRow): void {
    this.row = row;
    this.changed = true;
  }
}

/**
 * The I/O of one import on PostgreSQL, served from memory. Before a batch of lines is applied,
 * `read` fetches, a table at a time, everything those lines will ask (the owners of their ids and
 * references, their stored rows, the answers a deleted prompt takes along); the import's rules then
 * run synchronously against these rows; `write` sends the batch's net changes, a table at a time.
 * A few things are held for the whole import instead: the workspace's competitors (answers name
 * them), its brand records' default flags, its profile and plan.
 */
export class PostgresImportIo implements ImportIo {
  readonly records: RecordIo;
  readonly removal: RemovalIo;
  readonly ledger = new LedgerCache();
  readonly queue = new PostgresWaitingQueue();
  readonly outbox: EventOutbox;

  private readonly tables = new Map<string, RowCache<SavedRow>>();
  private readonly snapshots = new RowCache<SnapshotRow>('snapshots');
  private readonly competitors = new RowCache<SavedRow>('competitors', true);
  private readonly iq: RowCache<SavedRow>;
  /** The workspace's brand records that are their kind's default: id → kind. */
  private readonly defaults = new Map<string, string>();
  private readonly clearedDefaults = new Set<string>();
  private readonly profile = new WorkspaceRowCache();
  /** The newest `updated_at` of the workspace's answers when the import began. */
  private latestAnswerUpdate: string | null = null;
  private readonly workspacePlan = new WorkspaceRowCache();
  private readonly rollups: PostgresRollupSink;
  private readonly citedPages: PostgresCitedPageSink;
  /** `table column id` whose referrers the batch has read. */
  private readonly referrersRead = new Set<string>();
  /** At the end: the first referrer (by id) of each deleted record, and the days answers name each deleted competitor. */
  private readonly settleReferrers = new Map<string, string | null>();
  private readonly mentionedDays = new Map<string, number>();
  private events: PendingEvent[] = [];
  /** The ids whose rows the running write changes, while it runs. */
  private inFlight: Set<string> | undefined;
  /** The records the pending events are of. */
  private eventIds = new Set<string>();
  /** The columns the import writes in each table written whole, as its writers name them. */
  private readonly columns = new Map<string, readonly string[]>([
    [PROMPTS.table, PROMPTS.columns],
    [IQ_TABLE.table, IQ_TABLE.columns],
  ]);

  private constructor(
    private readonly client: pg.PoolClient,
    readonly workspaceId: string,
    private readonly types: ColumnTypes,
    seriesInMemory: number,
    lastCitedDay: number | null,
  ) {
    this.iq = this.table(IQ_TABLE.table);
    this.rollups = new PostgresRollupSink(workspaceId, types, seriesInMemory);
    this.citedPages = new PostgresCitedPageSink(workspaceId, lastCitedDay);
    this.outbox = {
      write: (type, id, at) => {
        this.events.push({ type, id, at });
        this.eventIds.add(id);
      },
    };
    this.records = this.recordIo();
    this.removal = {
      remove: (table, id) => this.removeRow(table, id),
      referrers: (table, column, id, limit) => this.referrers(table, column, id, limit),
    };
  }

  /** The I/O of an import of `workspaceId` on `client`, inside its transaction, with what it holds for the whole import read. */
  static async open(client: pg.PoolClient, workspaceId: string, seriesInMemory: number): Promise<PostgresImportIo> {
    const lastCitedDay = await client.query<{ day: number | null }>('SELECT max(day) AS day FROM cited_page_daily WHERE workspace_id = $1', [workspaceId]);
    const io = new PostgresImportIo(client, workspaceId, await readColumnTypes(client), seriesInMemory, lastCitedDay.rows[0]!.day);
    const competitors = await client.query<SavedRow & { id: string }>('SELECT * FROM competitors WHERE workspace_id = $1', [workspaceId]);
    for (const row of competitors.rows) io.competitors.load(row.id, row);
    const defaults = await client.query<{ id: string; type: string }>('SELECT id, type FROM iq_records WHERE workspace_id = $1 AND is_default = 1', [workspaceId]);
    for (const { id, type } of defaults.rows) io.defaults.set(id, type);
    io.latestAnswerUpdate = (await client.query<{ latest: string | null }>('SELECT max(updated_at) AS latest FROM snapshots WHERE workspace_id = $1', [workspaceId])).rows[0]!.latest;
    io.profile.row = (await client.query<SavedRow>('SELECT * FROM workspace_profiles WHERE workspace_id = $1', [workspaceId])).rows[0];
    io.workspacePlan.row = (await client.query<SavedRow>('SELECT * FROM workspace_plans WHERE workspace_id = $1', [workspaceId])).rows[0];
    return io;
  }

  private table(name: string): RowCache<SavedRow> {
    let cache = this.tables.get(name);
    if (!cache) this.tables.set(name, (cache = new RowCache<SavedRow>(name)));
    return cache;
  }

  /** The cache of a record type's table; undefined for the competitors (held whole) and the workspace's profile and plan. */
  private cacheOf(type: string): RowCache<SavedRow> | RowCache<SnapshotRow> | undefined {
    const table = recordType(type).table;
    if (table === undefined || table === COMPETITORS.table) return undefined;
    return table === 'snapshots' ? this.snapshots : this.table(table);
  }

  private recordIo(): RecordIo {
    const rowsOf = (cache: RowCache<SavedRow>): SavedRows => ({
      stored: (id) => cache.stored(id),
      write: (row, inserted) => cache.write(row.id as string, row, inserted),
    });
    const competitors: CompetitorRows = {
      ...rowsOf(this.competitors),
      nameKeys: () => new Map([...this.competitors.entries()].map(([id, row]) => [row.name_key as string, id])),
      namedLike: (nameKey, exceptId) => {
        for (const [id, row] of this.competitors.entries()) if (id !== exceptId && row.name_key === nameKey) return [id, row.name as string];
        return undefined;
      },
      mentionedDays: (id) => {
        const days = this.mentionedDays.get(id);
        if (days === undefined) throw new Error(`the import did not read the days answers name competitor ${id}`);
        return days;
      },
    };
    const iq: IqRows = {
      stored: (id) => this.iq.stored(id),
      write: (row, inserted) => {
        this.iq.write(row.id as string, row, inserted);
        if (row.is_default === 1) this.defaults.set(row.id as string, row.type as string);
        else this.defaults.delete(row.id as string);
      },
      clearDefault: (type, exceptId) => {
        for (const [id, kind] of this.defaults) {
          if (kind !== type || id === exceptId) continue;
          this.defaults.delete(id);
          this.clearedDefaults.add(id);
          if (this.iq.knows(id)) {
            const row = this.iq.stored(id);
            if (row) this.iq.patch(id, { ...row, is_default: 0 });
          }
        }
      },
    };
    const snapshots: SnapshotRows = {
      latestUpdate: () => this.latestAnswerUpdate,
      stored: (id) => {
        const r = this.snapshots.stored(id);
        return r && [r[2], r[3], r[4], r[6], r[7], r[8], r[9], r[10]];
      },
      insert: (row) => this.snapshots.write(row[0], row, true),
      update: (row) => this.snapshots.write(row[0], row, false),
      remove: (id) => this.snapshots.remove(id),
    };
    return {
      saved: (spec: WholeRowTable<unknown>) => {
        this.columns.set(spec.table, spec.columns);
        return rowsOf(this.table(spec.table));
      },
      prompts: rowsOf(this.table(PROMPTS.table)),
      competitors,
      iqRecords: iq,
      snapshots,
      rollups: this.rollups,
      citedPages: this.citedPages,
      workspaceProfile: this.profile,
      workspacePlan: this.workspacePlan,
    };
  }

  private removeRow(table: string, id: string): void {
    if (table === COMPETITORS.table) this.competitors.remove(id);
    else if (table === 'snapshots') this.snapshots.remove(id);
    else this.table(table).remove(id);
    if (table === IQ_TABLE.table) this.defaults.delete(id);
  }

  /** Up to `limit` ids referring to `id` through `table.column`, smallest first, as SQLite's statement lists them. */
  private referrers(table: string, column: string, id: string, limit: number): string[] {
    const key = `${table} ${column} ${id}`;
    const first = this.settleReferrers.get(key);
    if (first !== undefined) return first === null ? [] : [first];
    if (!this.referrersRead.has(key)) throw new Error(`the import did not read what refers to ${id} through ${table}.${column}`);
    const found: string[] = [];
    if (table === 'snapshots') {
      for (const [snapshotId, row] of this.snapshots.entries()) if (row[SNAPSHOT_PROMPT] === id) found.push(snapshotId);
    } else {
      for (const [rowId, row] of this.table(table).entries()) if (row[column] === id) found.push(rowId);
    }
    return found.sort().slice(0, limit);
  }

  /** What applying these items (lines of the file, or what waited for its end) will read. */
  plan(items: ReadonlyArray<ImportLine | DeferredItem>): ReadPlan {
    const plan: ReadPlan = { owners: new Set(), rows: new Map(), referrers: new Map(), waiting: new Set(), deletes: false };
    for (const item of items) {
      if ('event' in item && item.event !== null) continue;
      const record = 'record' in item ? item.record : (JSON.parse(item.text) as ImportLine['record']);
      this.planReads(record, plan);
    }
    return plan;
  }

  /** Reads what applying these items will ask. */
  async read(items: ReadonlyArray<ImportLine | DeferredItem>): Promise<void> {
    await this.readPlanned(this.plan(items));
  }

  /** Reads what a plan names. */
  async readPlanned(plan: ReadPlan): Promise<void> {
    // Sent together: they go out one after the other on the connection, behind at most the statement running.
    const reads = [this.readOwners(plan.owners), ...[...plan.rows].map(([table, ids]) => this.readRows(table, [...ids]))];
    for (const [key, ids] of plan.referrers) {
      const [table, column] = key.split(' ') as [string, string];
      reads.push(this.readRows(table, [...ids], column));
      for (const id of ids) this.referrersRead.add(`${table} ${column} ${id}`);
    }
    if (this.queue.holdsItems) reads.push(this.queue.read(this.client, [...plan.waiting]));
    await Promise.all(reads);
  }

  private planReads(record: ImportLine['record'], plan: ReadPlan): void {
    const id = record.id.toLowerCase();
    plan.owners.add(id);
    plan.waiting.add(id);
    if (record.type === 'delete') {
      plan.deletes = true;
      const type = record.record_type as string;
      const cache = this.cacheOf(type);
      if (cache) add(plan.rows, cache.table, id);
      for (const referrer of referrersOf(type)) if (referrer.cascade) add(plan.referrers, `${referrer.type.table} ${referrer.field}`, id);
      return;
    }
    const cache = this.cacheOf(record.type);
    if (cache) add(plan.rows, cache.table, id);
    // A writer may read the rows its references point to (a brand record reads its product's kind).
    for (const ref of recordType(record.type).references) {
      const value = record[ref.field];
      for (const refId of typeof value === 'string' ? [value] : Array.isArray(value) ? (value as string[]) : []) {
        const lowered = refId.toLowerCase();
        plan.owners.add(lowered);
        const target = this.cacheOf(ref.type);
        if (target) add(plan.rows, target.table, lowered);
      }
    }
  }

  private async readOwners(ids: Set<string>): Promise<void> {
    if (ids.size === 0) return;
    const list = [...ids];
    const found = await this.client.query({ text: 'SELECT id, workspace_id, type FROM record_ids WHERE id = ANY($1::text[])', values: [list], rowMode: 'array' });
    const owners = new Map((found.rows as [string, string, string][]).map(([id, workspace, type]) => [id, [workspace, type] as const]));
    for (const id of list) this.ledger.load(id, owners.get(id) ?? null);
  }

  /** Reads the rows of `table` whose `column` (the id by default) is one of `ids`. */
  private async readRows(table: string, ids: string[], column = 'id'): Promise<void> {
    if (table === 'snapshots') {
      const found = await this.client.query({
        text: `SELECT ${SNAPSHOT_COLUMNS.join(', ')} FROM snapshots WHERE ${column} = ANY($1::text[])`,
        values: [ids],
        rowMode: 'array',
      });
      const rows = found.rows as unknown as SnapshotRow[];
      for (const row of rows) this.snapshots.load(row[0], row);
      if (column === 'id') {
        const seen = new Set(rows.map((r) => r[0]));
        for (const id of ids) if (!seen.has(id)) this.snapshots.load(id, null);
      }
      return;
    }
    const cache = this.table(table);
    const found = await this.client.query<SavedRow & { id: string }>(`SELECT * FROM ${table} WHERE ${column} = ANY($1::text[])`, [ids]);
    for (const row of found.rows) cache.load(row.id, row);
    if (column === 'id') {
      const seen = new Set(found.rows.map((r) => r.id));
      for (const id of ids) if (!seen.has(id)) cache.load(id, null);
    }
  }

  /**
   * Whether applying `item` may change what a pending event's payload shows, so the events must be
   * written first: a deletion may change anything; a topic's name shows in articles and research
   * batches; a batch lists its ideas; a brand record's default flag moves between records of its
   * kind; any other record shows only in its own event (`./event-payloads.ts` reads each payload).
   */
  changesPendingEvents(item: DeferredItem): boolean {
    if (this.events.length === 0 || item.event !== null) return false;
    const record = JSON.parse(item.text) as ImportLine['record'];
    if (record.type === 'delete' || record.type === 'topic' || record.type === 'iq_record') return true;
    if (record.type === 'idea') return this.events.some((e) => e.type === 'research_batch.status_updated');
    return this.eventIds.has(record.id.toLowerCase());
  }

  /** Reads what settling the import's deletions asks: the deleted ids' owners, their first referrers, the days answers name them. */
  async readForSettle(checks: readonly PendingCheck[]): Promise<void> {
    await this.readOwners(new Set(checks.map((c) => c.id)));
    const byReferrer = new Map<string, Set<string>>();
    for (const { type, id } of checks) for (const r of referrersOf(type)) add(byReferrer, `${r.type.table} ${r.field}`, id);
    for (const [key, ids] of byReferrer) {
      const [table, column] = key.split(' ') as [string, string];
      const found = await this.client.query<{ ref: string; id: string }>(
        `SELECT DISTINCT ON (${column}) ${column} AS ref, id FROM ${table} WHERE ${column} = ANY($1::text[]) ORDER BY ${column}, id`,
        [[...ids]],
      );
      const first = new Map(found.rows.map((r) => [r.ref, r.id]));
      for (const id of ids) this.settleReferrers.set(`${key} ${id}`, first.get(id) ?? null);
    }
    const competitorIds = checks.filter((c) => c.type === 'competitor').map((c) => c.id);
    if (competitorIds.length > 0) {
      const days = await this.client.query<{ id: string; days: number }>(
        `SELECT competitor_id AS id, count(*) AS days FROM workspace_competitor_daily
         WHERE workspace_id = $1 AND competitor_id = ANY($2::text[]) GROUP BY competitor_id`,
        [this.workspaceId, competitorIds],
      );
      const counted = new Map(days.rows.map((r) => [r.id, Number(r.days)]));
      for (const id of competitorIds) this.mentionedDays.set(id, counted.get(id) ?? 0);
    }
  }

  /**
   * Writes the net changes since the last write, then the pending events with their payloads. What
   * it writes is taken from the batch when it is called, so the next batch's lines may be applied
   * while it runs (see `readsAhead`); the statements go out in order on the import's connection.
   */
  write(): Promise<void> {
    const { client, types } = this;
    const steps: Array<() => Promise<unknown>> = [];
    const taken = new Set<string>(this.ledger.pending.keys());
    const released = [...this.ledger.pending].filter(([, owner]) => owner === null).map(([id]) => id);
    const claimed = [...this.ledger.pending].filter((entry): entry is [string, readonly [string, string]] => entry[1] !== null);
    // An id claimed again after its release in the same batch still has its row: only that one is replaced.
    const [again, fresh] = partition(claimed, ([id]) => this.ledger.inDatabase(id));
    const ledgerRows = (entries: typeof claimed) => entries.map(([id, [workspace, type]]) => [id, workspace, type]);
    steps.push(
      () => deleteRows(client, 'record_ids', released),
      () => upsertRows(client, types, 'record_ids', LEDGER_COLUMNS, ledgerRows(again)),
      () => copyRows(client, 'record_ids', LEDGER_COLUMNS, ledgerRows(fresh)),
    );
    this.ledger.written();

    const caches = [this.snapshots, this.competitors, ...this.tables.values()];
    for (const cache of caches) {
      for (const id of cache.pending.keys()) taken.add(id);
      const gone = [...cache.pending].filter(([, w]) => w === GONE).map(([id]) => id);
      if (gone.length > 0) steps.push(() => deleteRows(client, cache.table, gone));
    }
    if (this.clearedDefaults.size > 0) {
      const cleared = [...this.clearedDefaults];
      this.clearedDefaults.clear();
      for (const id of cleared) taken.add(id);
      steps.push(() => client.query('UPDATE iq_records SET is_default = 0 WHERE id = ANY($1::text[])', [cleared]));
    }

    const writes = <Row>(cache: RowCache<Row>) => [...cache.pending.values()].filter((w) => w !== GONE);
    const [rewritten, added] = partition(writes(this.snapshots), (w) => this.snapshots.inDatabase(w.row[0]));
    steps.push(
      () => upsertRows(client, types, 'snapshots', SNAPSHOT_COLUMNS, rewritten.map((w) => w.row)),
      () => copyRows(client, 'snapshots', SNAPSHOT_COLUMNS, added.map((w) => w.row)),
    );
    // A competitor's name is unique in its workspace: rewritten rows go first, so that names may move between them.
    const competitors = writes(this.competitors).map((w) => w.row);
    steps.push(
      () => deleteRows(client, COMPETITORS.table, competitors.map((r) => r.id as string)),
      () => upsertRows(client, types, COMPETITORS.table, COMPETITORS.columns, competitors),
    );
    for (const [table, cache] of this.tables) {
      const rows = writes(cache);
      if (table === PROMPTS.table) steps.push(() => this.writePrompts(rows));
      else if (rows.length > 0) steps.push(() => upsertRows(client, types, table, this.columns.get(table)!, rows.map((w) => w.row)));
    }
    for (const cache of caches) cache.written();
    for (const [spec, cache] of [[WORKSPACE_PROFILES, this.profile], [WORKSPACE_PLANS, this.workspacePlan]] as const) {
      if (!cache.changed) continue;
      const row = cache.row!;
      cache.changed = false;
      steps.push(() => upsertRows(client, types, spec.table, spec.columns, [row], 'workspace_id'));
    }

    const rollups = this.rollups.take();
    const citedPages = this.citedPages.take();
    const queue = this.queue.take();
    steps.push(() => rollups(client), () => citedPages(client), () => queue(client));
    if (this.events.length > 0) {
      const events = this.events;
      this.events = [];
      this.eventIds = new Set();
      steps.push(async () => enqueueEventsOn(client, await withPayloads(client, this.workspaceId, events)));
    }
    this.inFlight = taken;
    return (async () => {
      for (const step of steps) await step();
      this.inFlight = undefined;
    })();
  }

  /**
   * Whether the reads of `plan` may go out, and its lines be applied, while the last write is still
   * running: the lines touch no id that write changes, delete nothing (a deletion reads what refers
   * to a record, rows the write may be adding) and nothing waits for the end of the file. Then what
   * they read is the same before and after that write.
   */
  readsAhead(plan: ReadPlan): boolean {
    const inFlight = this.inFlight;
    if (inFlight === undefined) return true;
    if (plan.referrers.size > 0 || plan.deletes || this.queue.holdsItems) return false;
    for (const id of plan.owners) if (inFlight.has(id)) return false;
    return true;
  }

  /** A new prompt takes the newest collection time of the answers already written for it; a changed one keeps its own. */
  private async writePrompts(writes: ReadonlyArray<{ row: SavedRow; inserted: boolean }>): Promise<void> {
    const inserted = writes.filter((w) => w.inserted).map((w) => w.row);
    await upsertRows(this.client, this.types, PROMPTS.table, PROMPTS.columns, writes.filter((w) => !w.inserted).map((w) => w.row));
    if (inserted.length === 0) return;
    await upsertRows(this.client, this.types, PROMPTS.table, PROMPTS.columns, inserted);
    await this.client.query(
      'UPDATE prompts p SET last_collected_ms = (SELECT max(collected_ms) FROM snapshots s WHERE s.prompt_id = p.id) WHERE p.id = ANY($1::text[])',
      [inserted.map((r) => r.id)],
    );
  }

  /** After a batch: what was read for it goes. */
  forget(): void {
    this.ledger.forget();
    this.snapshots.forget();
    for (const cache of this.tables.values()) cache.forget();
    this.referrersRead.clear();
  }
}
