import type { Db } from './database.js';

/**
 * The running-total tables of migration 011 as the snapshot import feeds them. A *series* is one
 * (prompt), (prompt, platform) or (prompt, competitor); each of its rows holds the sums of every
 * day up to and including the row's day. `apply` adds a batch of per-day changes: it makes sure a
 * row exists on every changed day (starting from its predecessor's totals), then adds to every
 * row from each changed day up to the next one the sum of the changes so far. Days after a
 * series' last row, as a time-ordered import brings them, are inserted with their totals.
 */
interface SeriesTable {
  table: string;
  /** Columns naming the series, before `day`. */
  keys: readonly string[];
  /** Running columns, in the order of a change's values. */
  running: readonly string[];
  /** Per-day columns matching `running` one to one, when the table keeps the day's own sums too. */
  daily?: readonly string[];
}

/** One change to one day of one series: `values` in the order of the table's running columns. */
export interface SeriesChange {
  keys: readonly string[];
  day: number;
  values: readonly number[];
}

const NO_NEXT_DAY = Number.MAX_SAFE_INTEGER;

function seriesWriter(db: Db, spec: SeriesTable) {
  const { table, keys, running } = spec;
  const daily = spec.daily ?? [];
  const keyMatch = keys.map((k, i) => `${k} = @k${i}`).join(' AND ');
  const ensure = db.prepare(
    `INSERT INTO ${table} (${[...keys, 'day', ...daily, ...running].join(', ')})
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
  const last = db.prepare(`SELECT day, ${running.join(', ')} FROM ${table} WHERE ${keyMatch} ORDER BY day DESC LIMIT 1`).raw();
  const append = db.prepare(
    `INSERT INTO ${table} (${[...keys, 'day', ...daily, ...running].join(', ')})
     VALUES (${[...keys.map((_, i) => `@k${i}`), '@day', ...daily.map((_, i) => `@d${i}`), ...running.map((_, i) => `@r${i}`)].join(', ')})`,
  );
  const totalsAt = db.prepare(`SELECT ${running.join(', ')} FROM ${table} WHERE ${keyMatch} AND day = @day`).raw();
  const before = db.prepare(`SELECT ${running.join(', ')} FROM ${table} WHERE ${keyMatch} AND day < @day ORDER BY day DESC LIMIT 1`).raw();
  const remove = db.prepare(`DELETE FROM ${table} WHERE ${keyMatch} AND day = @day`);

  function keyParams(values: readonly string[]): Record<string, string> {
    const params: Record<string, string> = {};
    values.forEach((v, i) => (params[`k${i}`] = v));
    return params;
  }

  /** A day whose own sums are all zero adds nothing to its series: its row goes. */
  function pruneIfEmpty(params: Record<string, unknown>): void {
    const at = totalsAt.get(params) as number[] | undefined;
    if (!at) return;
    const previous = (before.get(params) as number[] | undefined) ?? running.map(() => 0);
    if (at.every((v, i) => v === previous[i])) remove.run(params);
  }

  /** Changes all after the series' last row: new rows with their totals, nothing to update. */
  function appendSeries(changes: readonly SeriesChange[], params: Record<string, unknown>, lastRow: number[] | undefined): void {
    const sums = running.map((_, j) => (lastRow ? lastRow[j + 1]! : 0));
    for (const change of changes) {
      params.day = change.day;
      change.values.forEach((v, j) => {
        sums[j]! += v;
        params[`r${j}`] = sums[j];
        params[`d${j}`] = v;
      });
      append.run(params);
    }
  }

  function applySeries(changes: SeriesChange[]): void {
    changes.sort((a, b) => a.day - b.day);
    const params: Record<string, unknown> = keyParams(changes[0]!.keys);
    const lastRow = last.get(params) as number[] | undefined;
    if (!lastRow || lastRow[0]! < changes[0]!.day) {
      appendSeries(changes, params, lastRow);
      return;
    }
    for (const change of changes) {
      params.day = change.day;
      ensure.run(params);
    }
    const sums = running.map(() => 0);
    for (let i = 0; i < changes.length; i += 1) {
      const change = changes[i]!;
      params.day = change.day;
      params.next = changes[i + 1]?.day ?? NO_NEXT_DAY;
      change.values.forEach((v, j) => {
        sums[j]! += v;
        params[`r${j}`] = sums[j];
        if (daily.length > 0) params[`d${j}`] = v;
      });
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
    /** Adds the changes; several changes may name the same series, at most one per series and day. */
    apply(changes: Iterable<SeriesChange>): void {
      const bySeries = new Map<string, SeriesChange[]>();
      for (const change of changes) {
        if (change.values.every((v) => v === 0)) continue;
        const key = change.keys.join(' ');
        const list = bySeries.get(key);
        if (list) list.push(change);
        else bySeries.set(key, [change]);
      }
      for (const list of bySeries.values()) applySeries(list);
    },
  };
}

export type SeriesWriter = ReturnType<typeof seriesWriter>;

/** The three running-total tables of a prompt's analytics. */
export function createPromptRunningTotals(db: Db): { days: SeriesWriter; platforms: SeriesWriter; competitors: SeriesWriter } {
  return {
    days: seriesWriter(db, {
      table: 'prompt_day_totals',
      keys: ['prompt_id'],
      running: ['run_total', 'run_mentioned', 'run_cited'],
      daily: ['total', 'mentioned', 'cited'],
    }),
    platforms: seriesWriter(db, { table: 'prompt_platform_running', keys: ['prompt_id', 'platform'], running: ['run_total', 'run_mentioned', 'run_cited'] }),
    competitors: seriesWriter(db, { table: 'prompt_competitor_running', keys: ['prompt_id', 'competitor_id'], running: ['run_mentions'] }),
  };
}
