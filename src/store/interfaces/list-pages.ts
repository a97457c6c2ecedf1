// Where a page of a list starts and how it is ordered: the keyset positions every store's lists
// take, whatever the database.

/** The sort keys of a list ordered by creation time then id: (created_at, id). */
export type CreatedPosition = readonly [createdAt: string, id: string];

/** The sort key of a record list: creation time (the default) or last update time. */
export type RecordOrder = 'created_at' | 'updated_at';

/** The sort keys of a record list in its order: (created_at or updated_at, id). */
export type RecordPosition = readonly [time: string, id: string];

/** Which page of a record list to read: its order, the `updated_after` bound, the position to continue after. */
export interface RecordPage {
  order: RecordOrder;
  /** Only records updated strictly after this stored timestamp (UTC, milliseconds); null: all. */
  updatedAfter: string | null;
  after?: RecordPosition | undefined;
  limit: number;
}
