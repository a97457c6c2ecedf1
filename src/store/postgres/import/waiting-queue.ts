// The records and events of an import that wait for the end of the file, on PostgreSQL: a temporary
// table (so a file with many forward references keeps memory bounded), written with each batch and
// read back a page at a time in file order.
import type pg from 'pg';
import type { EventType } from '../../../../generated/events.js';
import type { DeferredItem, DeferredQueue } from '../../../import-engine/import-io.js';

const TABLE = 'pg_temp.import_deferred';
const PAGE = 500;

export class PostgresWaitingQueue implements DeferredQueue {
  private readonly pending: Array<DeferredItem & { seq: number }> = [];
  private readonly pendingIds = new Set<string>();
  /** Ids among the batch's that the table holds (read with the batch). */
  private readonly storedIds = new Set<string>();
  private seq = 0;
  private created = false;

  add(line: number, id: string, text: string): void {
    this.push({ line, id, text, event: null });
  }

  addEvent(line: number, id: string, event: EventType): void {
    this.push({ line, id, text: '', event });
  }

  private push(item: DeferredItem): void {
    this.seq += 1;
    this.pending.push({ ...item, seq: this.seq });
    this.pendingIds.add(item.id);
  }

  has(id: string): boolean {
    return this.pendingIds.has(id) || this.storedIds.has(id);
  }

  /** Whether the table holds anything, so a batch must ask it about its ids. */
  get holdsItems(): boolean {
    return this.created;
  }

  /** Reads which of the batch's ids wait in the table. */
  async read(client: pg.PoolClient, ids: readonly string[]): Promise<void> {
    this.storedIds.clear();
    if (!this.created || ids.length === 0) return;
    const found = await client.query<{ id: string }>(`SELECT DISTINCT id FROM ${TABLE} WHERE id = ANY($1::text[])`, [ids]);
    for (const { id } of found.rows) this.storedIds.add(id);
  }

  /** Takes what waits since the last write, at once, and writes it when the returned function runs. */
  take(): (client: pg.PoolClient) => Promise<void> {
    const items = this.pending.splice(0);
    for (const item of items) this.storedIds.add(item.id);
    this.pendingIds.clear();
    const create = items.length > 0 && !this.created;
    if (create) this.created = true;
    return async (client) => {
      if (items.length === 0) return;
      if (create) {
        await client.query(
          `CREATE TEMP TABLE import_deferred (
             seq BIGINT PRIMARY KEY, line BIGINT NOT NULL, id TEXT COLLATE "C" NOT NULL, text TEXT COLLATE "C" NOT NULL, event TEXT COLLATE "C"
           ) ON COMMIT DROP;
           CREATE INDEX import_deferred_by_id ON pg_temp.import_deferred (id)`,
        );
      }
      await client.query(`INSERT INTO ${TABLE} SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[])`, [
        items.map((i) => i.seq),
        items.map((i) => i.line),
        items.map((i) => i.id),
        items.map((i) => i.text),
        items.map((i) => i.event),
      ]);
    };
  }

  /** Everything that waited, in file order, a page at a time. */
  async *pages(client: pg.PoolClient): AsyncGenerator<DeferredItem[]> {
    if (!this.created) return;
    let after = 0;
    for (;;) {
      const page = await client.query<DeferredItem & { seq: number }>(
        `SELECT seq, line, id, text, event FROM ${TABLE} WHERE seq > $1 ORDER BY seq LIMIT ${PAGE}`,
        [after],
      );
      if (page.rows.length === 0) return;
      after = page.rows[page.rows.length - 1]!.seq;
      yield page.rows.map(({ line, id, text, event }) => ({ line, id, text, event }));
    }
  }
}
