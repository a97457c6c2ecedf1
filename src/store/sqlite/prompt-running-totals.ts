import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';
import type { SeriesChange } from '../../import-engine/snapshot-rollups.js';

/**
 * The running-total tables of migration 011 as the snapshot import feeds them. A *series* is one
 * (prompt), (prompt, platform) or (prompt, competitor); each of its rows holds the sums of every
 * day up to and including the row's day.
 *
 * Changes to days after a series' last row, as a time-ordered import brings them, are inserted
 * at once with their totals. A change to an earlier day must add to every later row, so those
 * are staged in a temporary table (memory stays bounded) and settled once, at the end of the
 * import: a series then costs one pass over its rows from its first changed day, however many
 * batches touched it, instead of one pass per batch.
 */
interface SeriesTable {
  /** Tags this table's changes in the staging table. */
  tag: number;
  table: string;
  /** Columns naming the series, before `day` (one or two). */
  keys: readonly string[];
  /** Running columns, in the order of a change's values (one to three). */
  running: readonly string[];
  /** Per-day columns matching `running` one to one, when the table keeps the day's own sums too. */
  daily?: readonly string[];
}

const NO_NEXT_DAY = Number.MAX_SAFE_INTEGER;
const SETTLE_PAGE = 2_000;

/** The staging table of changes to earlier days, shared by the three tables (told apart by tag). */
function openStaging(db: Db) {
  let open = false;
  const ensureOpen = (): void => {
    if (open) return;
    db.exec(
      `CREATE TEMP TABLE IF NOT EXISTS running_changes (
         tag INTEGER NOT NULL, k0 TEXT NOT NULL, k1 TEXT NOT NULL, day INTEGER NOT NULL,
         v0 INTEGER NOT NULL, v1 INTEGER NOT NULL, v2 INTEGER NOT NULL,
         PRIMARY KEY (tag, k0, k1, day)
       ) WITHOUT ROWID;
       DELETE FROM temp.running_changes;`,
    );
    open = true;
  };
  let stage: Statement | undefined;
  let page: Statement | undefined;
  return {
    stage(tag: number, keys: readonly string[], day: number, values: readonly number[]): void {
      ensureOpen();
      stage ??= db.prepare(
        `INSERT INTO temp.running_changes VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET v0 = v0 + excluded.v0, v1 = v1 + excluded.v1, v2 = v2 + excluded.v2`,
      );
      stage.run(tag, keys[0], keys[1] ?? '', day, values[0] ?? 0, values[1] ?? 0, values[2] ?? 0);
    },
    /** The staged changes of one table after (k0, k1, day), in that order, a page at a time. */
    page(tag: number, after: readonly [string, string, number]): Array<[string, string, number, number, number, number]> {
      if (!open) return [];
      page ??= db
        .prepare(
          `SELECT k0, k1, day, v0, v1, v2 FROM temp.running_changes
           WHERE tag = ? AND (k0, k1, day) > (?, ?, ?) ORDER BY k0, k1, day LIMIT ${SETTLE_PAGE}`,
        )
        .raw();
      return page.all(tag, ...after) as Array<[string, string, number, number, number, number]>;
    },
    close(): void {
      if (!open) return;
      db.exec('DROP TABLE temp.running_changes');
      open = false;
      stage = undefined;
      page = undefined;
    },
  };
}

type Staging = ReturnType<typeof openStaging>;

function seriesWriter(db: Db, staging: Staging, spec: SeriesTable) {
  const { table, keys, running, tag } = spec;
  const daily = spec.daily ?? [];
  const keyMatch = keys.map((k, i) => `${k} = @k${i}`).join(' AND ');
  const columns = [...keys, 'day', ...daily, ...running].join(', ');
  const last = db.prepare(`SELECT day, ${running.join(', ')} FROM ${table} WHERE ${keyMatch} ORDER BY day DESC LIMIT 1`).raw();
  const append = db.prepare(
    `INSERT INTO ${table} (${columns})
     VALUES (${[...keys.map((_, i) => `@k${i}`), '@day', ...daily.map((_, i) => `@d${i}`), ...running.map((_, i) => `@r${i}`)].join(', ')})`,
  );
  // A row for the day, starting from its predecessor's totals, unless there is one already.
  const ensure = db.prepare(
    `INSERT INTO ${table} (${columns})
     SELECT ${[...keys.map((_, i) => `@k${i}`), '@day', ...daily.map(() => '0'), ...running.map((c) => `coalesce(p.${c}, 0)`)].join(', ')}
     FROM (SELECT 1) LEFT JOIN (
       SELECT ${running.join(', ')} FROM ${table} WHERE ${keyMatch} AND day < @day ORDER BY day DESC LIMIT 1
     ) p ON true
     WHERE true
     ON CONFLICT DO NOTHING`,
  );
  const add = db.prepare(
    `UPDATE ${table} SET ${[
      ...running.map((c, i) => `${c} = ${c} + @r${i}`),
      ...daily.map((c, i) => `${c} = ${c} + (CASE WHEN day = @day THEN @d${i} ELSE 0 END)`),
    ].join(', ')}
     WHERE ${keyMatch} AND day >= @day AND day < @next`,
  );
  const totalsAt = db.prepare(`SELECT ${running.join(', ')} FROM ${table} WHERE ${keyMatch} AND day = @day`).raw();
  const before = db.prepare(`SELECT ${running.join(', ')} FROM ${table} WHERE ${keyMatch} AND day < @day ORDER BY day DESC LIMIT 1`).raw();
  const remove = db.prepare(`DELETE FROM ${table} WHERE ${keyMatch} AND day = @day`);

  function keyParams(values: readonly string[]): Record<string, unknown> {
    const params: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i += 1) params[`k${i}`] = values[i];
    return params;
  }

  /** Changes (sorted by day) all after the series' last row: new rows with their totals. */
  function appendSeries(changes: readonly SeriesChange[], params: Record<string, unknown>, lastRow: number[] | undefined): void {
    const sums = running.map((_, j) => (lastRow ? lastRow[j + 1]! : 0));
    for (const change of changes) {
      params.day = change.day;
      for (let j = 0; j < running.length; j += 1) {
        sums[j]! += change.values[j]!;
        params[`r${j}`] = sums[j];
        params[`d${j}`] = change.values[j];
      }
      append.run(params);
    }
  }

  /** A day whose own sums are all zero adds nothing to its series: its row goes. */
  function pruneIfEmpty(params: Record<string, unknown>): void {
    const at = totalsAt.get(params) as number[] | undefined;
    if (!at) return;
    const previous = (before.get(params) as number[] | undefined) ?? running.map(() => 0);
    if (at.every((v, i) => v === previous[i])) remove.run(params);
  }

  /** Any changes (sorted by day, one per day): rows on every changed day, then each later row adds what came before it. */
  function addToSeries(changes: readonly SeriesChange[]): void {
    const params = keyParams(changes[0]!.keys);
    for (const change of changes) {
      params.day = change.day;
      ensure.run(params);
    }
    const sums = running.map(() => 0);
    for (let i = 0; i < changes.length; i += 1) {
      const change = changes[i]!;
      params.day = change.day;
      params.next = changes[i + 1]?.day ?? NO_NEXT_DAY;
      for (let j = 0; j < running.length; j += 1) {
        sums[j]! += change.values[j]!;
        params[`r${j}`] = sums[j];
        params[`d${j}`] = change.values[j];
      }
      add.run(params);
    }
    for (const change of changes) {
      if (change.values.some((v) => v < 0)) {
        params.day = change.day;
        pruneIfEmpty(params);
      }
    }
  }

  return {
    /**
     * Adds the changes (at most one per series and day): appended at once where they follow the
     * series' last row, staged for `settle` otherwise.
     */
    apply(changes: Iterable<SeriesChange>): void {
      const bySeries = new Map<string, SeriesChange[]>();
      for (const change of changes) {
        if (change.values.every((v) => v === 0)) continue;
        const key = change.keys.join(' ');
        const list = bySeries.get(key);
        if (list) list.push(change);
        else bySeries.set(key, [change]);
      }
      for (const list of bySeries.values()) {
        list.sort((a, b) => a.day - b.day);
        const params = keyParams(list[0]!.keys);
        const lastRow = last.get(params) as number[] | undefined;
        if (!lastRow || lastRow[0]! < list[0]!.day) appendSeries(list, params, lastRow);
        else for (const change of list) staging.stage(tag, change.keys, change.day, change.values);
      }
    },
    /** Applies the staged changes, series by series. */
    settle(): void {
      let series: SeriesChange[] = [];
      let after: [string, string, number] = ['', '', Number.MIN_SAFE_INTEGER];
      for (;;) {
        const rows = staging.page(tag, after);
        for (const [k0, k1, day, v0, v1, v2] of rows) {
          const keysOf = keys.length === 1 ? [k0] : [k0, k1];
          if (series.length > 0 && (series[0]!.keys[0] !== k0 || (series[0]!.keys[1] ?? '') !== k1)) {
            addToSeries(series);
            series = [];
          }
          const values = [v0, v1, v2].slice(0, running.length);
          if (values.some((v) => v !== 0)) series.push({ keys: keysOf, day, values });
          after = [k0, k1, day];
        }
        if (rows.length < SETTLE_PAGE) break;
      }
      if (series.length > 0) addToSeries(series);
    },
  };
}

/** The three running-total tables of a prompt's analytics, for one import. */
export function createPromptRunningTotals(db: Db) {
  const staging = openStaging(db);
  const writers = {
    days: seriesWriter(db, staging, {
      tag: 0,
      table: 'prompt_day_totals',
      keys: ['prompt_id'],
      running: ['run_total', 'run_mentioned', 'run_cited'],
      daily: ['total', 'mentioned', 'cited'],
    }),
    platforms: seriesWriter(db, staging, { tag: 1, table: 'prompt_platform_running', keys: ['prompt_id', 'platform'], running: ['run_total', 'run_mentioned', 'run_cited'] }),
    competitors: seriesWriter(db, staging, { tag: 2, table: 'prompt_competitor_running', keys: ['prompt_id', 'competitor_id'], running: ['run_mentions'] }),
  };
  return {
    ...writers,
    /** Applies every staged change; call once, after the import's last `apply`. */
    settle(): void {
      writers.days.settle();
      writers.platforms.settle();
      writers.competitors.settle();
      staging.close();
    },
  };
}
