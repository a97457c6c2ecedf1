// The snapshot rollups of an import on PostgreSQL (the sums of `../../../import-engine/snapshot-rollups.ts`):
// the workspace's daily rollups and the prompts' newest collection time are written with each
// batch; the running totals are summed over the whole import (in a temporary table past a bound)
// and settled once, set-based, at the end.
import type pg from 'pg';
import type { RollupChanges, RollupSink, SeriesChange } from '../../../import-engine/snapshot-rollups.js';
import type { ColumnTypes } from './table-writes.js';
import { unnestOf } from './table-writes.js';

/** A running-total table (migration 011): the columns naming a series, its running columns, and the day's own sums where it keeps them. */
interface SeriesTable {
  tag: number;
  table: string;
  keys: readonly string[];
  running: readonly string[];
  daily: readonly string[];
}

const SERIES: Record<'promptDays' | 'platforms' | 'competitors', SeriesTable> = {
  promptDays: {
    tag: 0,
    table: 'prompt_day_totals',
    keys: ['prompt_id'],
    running: ['run_total', 'run_mentioned', 'run_cited'],
    daily: ['total', 'mentioned', 'cited'],
  },
  platforms: { tag: 1, table: 'prompt_platform_running', keys: ['prompt_id', 'platform'], running: ['run_total', 'run_mentioned', 'run_cited'], daily: [] },
  competitors: { tag: 2, table: 'prompt_competitor_running', keys: ['prompt_id', 'competitor_id'], running: ['run_mentions'], daily: [] },
};

const STAGING = 'pg_temp.import_running_changes';

type SeriesSums = SeriesChange & { tag: number; values: number[] };

function sumInto(target: Map<string, SeriesSums>, tag: number, changes: readonly SeriesChange[]): void {
  for (const change of changes) {
    const key = `${tag} ${change.keys.join(' ')} ${change.day}`;
    const known = target.get(key);
    if (known) for (let i = 0; i < change.values.length; i += 1) known.values[i]! += change.values[i]!;
    else target.set(key, { tag, keys: change.keys, day: change.day, values: [...change.values] });
  }
}

/** `t.k = c.k0 [AND t.k1 = c.k1]` for a series table aliased `t`, changes aliased `c`. */
function seriesMatch(spec: SeriesTable, t: string, c: string): string {
  return spec.keys.map((k, i) => `${t}.${k} = ${c}.k${i}`).join(' AND ');
}

/** The changes of one table as statement parameters, spread by `unnest` into (k0, k1, day, v0, v1, v2). */
const CHANGES_FROM_PARAMETERS = 'unnest($1::text[], $2::text[], $3::int[], $4::bigint[], $5::bigint[], $6::bigint[]) AS s(k0, k1, day, v0, v1, v2)';

function changeArrays(changes: readonly SeriesSums[]): unknown[][] {
  return [
    changes.map((c) => c.keys[0]),
    changes.map((c) => c.keys[1] ?? ''),
    changes.map((c) => c.day),
    changes.map((c) => c.values[0] ?? 0),
    changes.map((c) => c.values[1] ?? 0),
    changes.map((c) => c.values[2] ?? 0),
  ];
}

/**
 * Settles one running-total table from its changes (`source`, rows of k0, k1, day, v0, v1, v2), with
 * the result SQLite's day-by-day writer gets (`../../sqlite/prompt-running-totals.ts`): a day without
 * a row gets one, holding its predecessor's totals plus the changes up to it; every stored row from a
 * series' first changed day on is raised by the changes up to it; the row of a day whose own sums
 * fell to zero goes (its totals equal its predecessor's). The insert and the update are one
 * statement: the update sees only the rows stored before it, so the new ones are counted once.
 */
async function settleSeries(client: pg.PoolClient, spec: SeriesTable, source: string, params: unknown[], mayFall = true): Promise<void> {
  const { table, keys, running, daily } = spec;
  await client.query(
    `WITH c AS (
       SELECT k0, k1, day, v0, v1, v2, ${running.map((_, i) => `sum(v${i}) OVER w AS s${i}`).join(', ')}, lead(day) OVER w AS next_day
       FROM ${source} WHERE v0 <> 0 OR v1 <> 0 OR v2 <> 0
       WINDOW w AS (PARTITION BY k0, k1 ORDER BY day)
     ), added AS (
       INSERT INTO ${table} (${[...keys, 'day', ...daily, ...running].join(', ')})
       SELECT ${[...keys.map((_, i) => `c.k${i}`), 'c.day', ...daily.map((_, i) => `c.v${i}`), ...running.map((r, i) => `coalesce(p.${r}, 0) + c.s${i}`)].join(', ')}
       FROM c LEFT JOIN LATERAL (
         SELECT ${running.join(', ')} FROM ${table} p WHERE ${seriesMatch(spec, 'p', 'c')} AND p.day < c.day ORDER BY p.day DESC LIMIT 1
       ) p ON true
       WHERE NOT EXISTS (SELECT 1 FROM ${table} e WHERE ${seriesMatch(spec, 'e', 'c')} AND e.day = c.day)
     )
     UPDATE ${table} t SET ${[
       ...running.map((r, i) => `${r} = t.${r} + c.s${i}`),
       ...daily.map((d, i) => `${d} = t.${d} + CASE WHEN t.day = c.day THEN c.v${i} ELSE 0 END`),
     ].join(', ')}
     FROM c WHERE ${seriesMatch(spec, 't', 'c')} AND t.day >= c.day AND (c.next_day IS NULL OR t.day < c.next_day)`,
    params,
  );
  if (!mayFall) return;
  await client.query(
    `DELETE FROM ${table} t USING ${source}
     WHERE (s.v0 < 0 OR s.v1 < 0 OR s.v2 < 0) AND ${seriesMatch(spec, 't', 's')} AND t.day = s.day
       AND (${running.map((r) => `t.${r}`).join(', ')}) = (
         SELECT ${running.map((r) => `coalesce(p.${r}, 0)`).join(', ')}
         FROM (SELECT 1) one LEFT JOIN LATERAL (
           SELECT ${running.join(', ')} FROM ${table} q WHERE ${keys.map((k) => `q.${k} = t.${k}`).join(' AND ')} AND q.day < t.day ORDER BY q.day DESC LIMIT 1
         ) p ON true
       )`,
    params,
  );
}

/**
 * Whether `table` holds a row of any of these prompts (`prompts`: a query of one column, with its
 * parameters). When it holds none, no series of the changes has a stored row to carry over or
 * raise, so settling comes down to inserting the changes' running sums (`insertSeries`): the usual
 * case of a first import.
 */
async function storesRowsOf(client: pg.PoolClient, spec: SeriesTable, prompts: string, params: unknown[]): Promise<boolean> {
  const found = await client.query<{ stored: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${spec.table} WHERE prompt_id IN (${prompts})) AS stored`, params);
  return found.rows[0]!.stored;
}

/**
 * What `settleSeries` writes for series with no stored row, in one pass: each day with changes gets
 * a row holding the series' changes up to that day. There is no predecessor to add and no stored day
 * to raise; and no row to take away, since every day inserted has a change of its own, so its
 * totals differ from its predecessor's.
 */
async function insertSeries(client: pg.PoolClient, spec: SeriesTable, source: string, params: unknown[]): Promise<void> {
  const { table, keys, running, daily } = spec;
  await client.query(
    `INSERT INTO ${table} (${[...keys, 'day', ...daily, ...running].join(', ')})
     SELECT ${[...keys.map((_, i) => `k${i}`), 'day', ...daily.map((_, i) => `v${i}`), ...running.map((_, i) => `sum(v${i}) OVER w`)].join(', ')}
     FROM ${source} WHERE v0 <> 0 OR v1 <> 0 OR v2 <> 0
     WINDOW w AS (PARTITION BY k0, k1 ORDER BY day)`,
    params,
  );
}


interface WorkspaceSums {
  day: number;
  key: string;
  values: number[];
}

/**
 * The rollup sink of one import: `add` sums in memory (`../../../import-engine/snapshot-rollups.ts` hands it
 * every flush), `take` takes what the batch summed to be written; `settle` (after the import's last
 * answer) is honoured by the next `take`.
 */
export class PostgresRollupSink implements RollupSink {
  private readonly series = new Map<string, SeriesSums>();
  private readonly daily = new Map<string, WorkspaceSums>();
  private readonly mentions = new Map<string, WorkspaceSums>();
  private readonly touched = new Set<string>();
  private staging = false;
  private settleRequested = false;

  constructor(
    private readonly workspaceId: string,
    private readonly types: ColumnTypes,
    /** Changed (series, day) keys summed in memory; past it they wait in a temporary table. */
    private readonly seriesInMemory: number,
  ) {}

  add(changes: RollupChanges): void {
    sumInto(this.series, SERIES.promptDays.tag, changes.promptDays);
    sumInto(this.series, SERIES.platforms.tag, changes.platforms);
    sumInto(this.series, SERIES.competitors.tag, changes.competitors);
    for (const w of changes.workspaceDaily) {
      const key = `${w.day} ${w.platform}`;
      const known = this.daily.get(key);
      if (known) {
        known.values[0]! += w.total;
        known.values[1]! += w.mentioned;
        known.values[2]! += w.cited;
      } else {
        this.daily.set(key, { day: w.day, key: w.platform, values: [w.total, w.mentioned, w.cited] });
      }
    }
    for (const m of changes.workspaceMentions) {
      const key = `${m.day} ${m.competitorId}`;
      const known = this.mentions.get(key);
      if (known) known.values[0]! += m.mentions;
      else this.mentions.set(key, { day: m.day, key: m.competitorId, values: [m.mentions] });
    }
    for (const promptId of changes.touchedPrompts) this.touched.add(promptId);
  }

  settle(): void {
    this.settleRequested = true;
  }

  /**
   * Takes what the batch summed, at once (sums added later wait for the next write), and writes it
   * when the returned function runs, after the batch's snapshots and prompts are written.
   */
  take(): (client: pg.PoolClient) => Promise<void> {
    const daily = [...this.daily.values()];
    const mentions = [...this.mentions.values()];
    const touched = [...this.touched];
    this.daily.clear();
    this.mentions.clear();
    this.touched.clear();
    const settle = this.settleRequested;
    this.settleRequested = false;
    const stage = this.series.size > this.seriesInMemory || (settle && this.staging);
    const series = stage || settle ? [...this.series.values()] : [];
    if (stage || settle) this.series.clear();
    return async (client) => {
      await this.addWorkspaceRows(client, 'workspace_daily', 'platform', ['total', 'mentioned', 'cited'], daily);
      await this.addWorkspaceRows(client, 'workspace_competitor_daily', 'competitor_id', ['mentions'], mentions);
      if (touched.length > 0) {
        await client.query(
          'UPDATE prompts p SET last_collected_ms = (SELECT max(collected_ms) FROM snapshots s WHERE s.prompt_id = p.id) WHERE p.id = ANY($1::text[])',
          [touched],
        );
      }
      if (stage) await this.stageSeries(client, series);
      if (settle) await this.settleRunningTotals(client, stage ? [] : series);
    };
  }

  /** The running totals, from the changes summed in memory or, when they outgrew it, in the temporary table. */
  private async settleRunningTotals(client: pg.PoolClient, all: readonly SeriesSums[]): Promise<void> {
    if (this.staging) {
      for (const spec of Object.values(SERIES)) {
        const source = `(SELECT k0, k1, day, v0, v1, v2 FROM ${STAGING} WHERE tag = ${spec.tag}) AS s`;
        if (await storesRowsOf(client, spec, `SELECT k0 FROM ${STAGING} WHERE tag = ${spec.tag}`, [])) await settleSeries(client, spec, source, []);
        else await insertSeries(client, spec, source, []);
      }
      await client.query(`DROP TABLE ${STAGING}`);
      this.staging = false;
      return;
    }
    for (const spec of Object.values(SERIES)) {
      const changes = all.filter((c) => c.tag === spec.tag);
      const falls = changes.some((c) => c.values.some((v) => v < 0));
      if (changes.length === 0) continue;
      const prompts = [...new Set(changes.map((c) => c.keys[0]))];
      if (await storesRowsOf(client, spec, 'SELECT unnest($1::text[])', [prompts])) await settleSeries(client, spec, CHANGES_FROM_PARAMETERS, changeArrays(changes), falls);
      else await insertSeries(client, spec, CHANGES_FROM_PARAMETERS, changeArrays(changes));
    }
  }

  private async stageSeries(client: pg.PoolClient, all: readonly SeriesSums[]): Promise<void> {
    if (all.length === 0) return;
    if (!this.staging) {
      this.staging = true;
      await client.query(
        `CREATE TEMP TABLE import_running_changes (
           tag INTEGER NOT NULL, k0 TEXT COLLATE "C" NOT NULL, k1 TEXT COLLATE "C" NOT NULL, day INTEGER NOT NULL,
           v0 BIGINT NOT NULL, v1 BIGINT NOT NULL, v2 BIGINT NOT NULL, PRIMARY KEY (tag, k0, k1, day)
         ) ON COMMIT DROP`,
      );
    }
    await client.query(
      `INSERT INTO ${STAGING} SELECT ($7::int[])[s.n], s.k0, s.k1, s.day, s.v0, s.v1, s.v2
       FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[], $5::bigint[], $6::bigint[]) WITH ORDINALITY AS s(k0, k1, day, v0, v1, v2, n)
       ON CONFLICT (tag, k0, k1, day) DO UPDATE SET v0 = ${STAGING}.v0 + excluded.v0, v1 = ${STAGING}.v1 + excluded.v1, v2 = ${STAGING}.v2 + excluded.v2`,
      [...changeArrays(all), all.map((c) => c.tag)],
    );
  }

  /** Adds the sums to the workspace's rollup rows; a row whose total falls to zero goes. */
  private async addWorkspaceRows(
    client: pg.PoolClient,
    table: string,
    keyColumn: string,
    columns: readonly string[],
    sums: readonly WorkspaceSums[],
  ): Promise<void> {
    const rows = sums.filter((s) => s.values.some((v) => v !== 0));
    if (rows.length === 0) return;
    const all = ['workspace_id', 'day', keyColumn, ...columns];
    await client.query(
      `INSERT INTO ${table} (${all.join(', ')}) SELECT * FROM ${unnestOf(this.types, table, all)}
       ON CONFLICT (workspace_id, day, ${keyColumn}) DO UPDATE SET ${columns.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`,
      [rows.map(() => this.workspaceId), rows.map((r) => r.day), rows.map((r) => r.key), ...columns.map((_, i) => rows.map((r) => r.values[i]))],
    );
    const falling = rows.filter((r) => r.values[0]! < 0);
    if (falling.length === 0) return;
    await client.query(
      `DELETE FROM ${table} t USING unnest($2::int[], $3::text[]) AS u(day, key)
       WHERE t.workspace_id = $1 AND t.day = u.day AND t.${keyColumn} = u.key AND t.${columns[0]} = 0`,
      [this.workspaceId, falling.map((r) => r.day), falling.map((r) => r.key)],
    );
  }
}
