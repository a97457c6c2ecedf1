import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, periodsFor } from '../../src/analytics/periods.js';
import { createPostgresPromptStore } from '../../src/store/postgres/prompts.js';
import type { Queryable } from '../../src/store/postgres/query.js';
import { createPostgresVisibilityAnalyticsStore } from '../../src/store/postgres/visibility-analytics.js';
import { createPostgresAnswerStore } from '../../src/store/postgres/visibility-answers.js';
import { createPostgresCitedPageStore } from '../../src/store/postgres/visibility-cited-pages.js';
import { createPostgresVisibilityOverviewStore } from '../../src/store/postgres/visibility-overview.js';
import { postgresAvailable } from '../support/postgres.js';
import { plansOf } from '../support/postgres-plans.js';
import { openParityData, TODAY, type ParityData } from '../support/visibility-parity.js';

// Each read of the visibility areas seeks the index SQLite's plan for the same statement seeks
// (listed beside each case), in the order its keyset needs, so its cost follows the rows it
// returns and not the table. Sequential and bitmap scans are switched off: on tables this small
// PostgreSQL would rightly read them whole, and what is checked is that the statement CAN be
// served by that index (the same columns, the same "C" collation, a row-value comparison the
// index takes as a range), which is what it chooses on large tables.
const INDEX_ONLY = { enable_seqscan: 'off', enable_bitmapscan: 'off' };

describe.skipIf(!postgresAvailable())('PostgreSQL visibility reads seek the indexes SQLite\'s do', () => {
  let data: ParityData;
  let url: string;
  const periods = periodsFor('30d', new Date(TODAY * DAY_MS));

  beforeAll(async () => {
    data = await openParityData();
    url = (data.pool.options as { connectionString: string }).connectionString;
    // Table statistics, as autovacuum keeps them: without them an id look-up may as well read
    // another index of a table this small.
    await data.pool.query('ANALYZE');
  });
  afterAll(async () => {
    await data?.close();
  });

  async function plan(run: (db: Queryable) => Promise<unknown>): Promise<string> {
    return (await plansOf(url, run, INDEX_ONLY)).join('\n');
  }

  it('prompts: by id on the primary key; pages on (workspace_id, created_at, id) or (workspace_id, updated_at, id), no sort', async () => {
    const workspaceId = data.main.workspaceId;
    // SQLite: sqlite_autoindex_prompts_1 (id=?)
    expect(await plan((db) => createPostgresPromptStore(db).get(workspaceId, data.main.promptIds[0]!))).toMatch(/Index Scan using prompts_pkey/);
    // SQLite: prompts_by_workspace (workspace_id=? AND (created_at,id)>(?,?))
    const byCreation = await plan((db) =>
      createPostgresPromptStore(db).list({ workspaceId }, { order: 'created_at', updatedAfter: null, after: ['2026-01-01T00:01:00.000Z', ''], limit: 5 }),
    );
    expect(byCreation).toMatch(/Index Scan using prompts_by_workspace on prompts p[^\n]*\n\s+Index Cond: \(\(workspace_id = '[^']+'::text\) AND \(ROW\(created_at, id\) > ROW/);
    expect(byCreation).not.toMatch(/Sort Key/);
    // SQLite: prompts_by_update (workspace_id=?)
    const byUpdate = await plan((db) => createPostgresPromptStore(db).list({ workspaceId }, { order: 'updated_at', updatedAfter: '2026-01-01T00:00:00.000Z', limit: 5 }));
    expect(byUpdate).toMatch(/Index Scan using prompts_by_update/);
    expect(byUpdate).not.toMatch(/Sort Key/);
  });

  it('analytics: one backward seek of each running-total primary key per series and edge', async () => {
    const analytics = (db: Queryable) => createPostgresVisibilityAnalyticsStore(db);
    const promptId = data.main.promptIds[0]!;
    // SQLite: prompt_day_totals, prompt_platform_running: PRIMARY KEY (… AND day<?), one row each
    const totals = await plan((db) => analytics(db).promptPeriodTotals(promptId, periods));
    expect(totals).toMatch(/Index Scan using prompt_day_totals_pkey on prompt_day_totals[^\n]*\n\s+Index Cond: \(\(prompt_id = '[^']+'::text\) AND \(day >= \d+\) AND \(day <= \d+\)\)/);
    expect(totals).toMatch(/Index Scan Backward using prompt_day_totals_pkey[^\n]*rows=1 loops=3\)/);
    expect(totals).toMatch(/Index Scan Backward using prompt_platform_running_pkey[^\n]*rows=1 loops=12\)/);
    // SQLite: competitors by sqlite_autoindex_competitors_2 (workspace_id=?), prompt_competitor_running PRIMARY KEY
    const competitors = await plan((db) => analytics(db).promptCompetitorMentions(data.main.workspaceId, promptId, periods.currentStart, periods.today));
    expect(competitors).toMatch(/Index Scan using competitors_workspace_id_name_key_key/);
    expect(competitors).toMatch(/Index Scan Backward using prompt_competitor_running_pkey/);
    expect(competitors).not.toMatch(/Sort Key/);
    const page = await plan((db) => analytics(db).promptPeriodCounts(data.main.promptIds.slice(0, 25), periods));
    expect(page).toMatch(/Index Scan Backward using prompt_day_totals_pkey[^\n]*loops=75\)/);
  });

  it('overview: the workspace rollups by their primary keys, competitors by (workspace_id, name_key)', async () => {
    const overview = (db: Queryable) => createPostgresVisibilityOverviewStore(db);
    const workspaceId = data.main.workspaceId;
    // SQLite: prompts_by_update (workspace_id=?), competitors COVERING INDEX sqlite_autoindex_competitors_2
    const setup = await plan((db) => overview(db).setupCounts(workspaceId));
    expect(setup).toMatch(/Index (Only )?Scan using prompts_by_(workspace|update)/);
    expect(setup).toMatch(/Index Only Scan using competitors_workspace_id_name_key_key/);
    // SQLite: workspace_daily PRIMARY KEY (workspace_id=? AND day>? AND day<?)
    for (const platform of [undefined, 'grok']) {
      const daily = await plan((db) => overview(db).workspaceDaily(workspaceId, periods.previousStart, periods.today, platform));
      expect(daily).toMatch(/Index Scan using workspace_daily_pkey/);
      expect(daily).not.toMatch(/Sort Key/);
    }
    // SQLite: workspace_competitor_daily PRIMARY KEY, competitors by sqlite_autoindex_competitors_2
    const mentions = await plan((db) => overview(db).competitorMentions(workspaceId, periods));
    expect(mentions).toMatch(/Index Scan using workspace_competitor_daily_pkey/);
    expect(mentions).toMatch(/Index Scan using competitors_workspace_id_name_key_key/);
  });

  it('answers: pages walk (workspace_id | prompt_id, collected_ms, id) backwards, or (…, updated_at, id) forwards, from the position, no sort', async () => {
    const answers = (db: Queryable) => createPostgresAnswerStore(db);
    const window = { workspaceId: data.main.workspaceId, fromMs: (TODAY - 29) * DAY_MS, untilMs: (TODAY + 1) * DAY_MS };
    // SQLite: snapshots_by_workspace_time (workspace_id=? AND collected_ms>? AND (collected_ms,id)<(?,?))
    const page = await plan((db) => answers(db).page({ ...window, platform: 'claude', mentioned: true }, 25, [TODAY * DAY_MS, 'f']));
    expect(page).toMatch(/Index Scan Backward using snapshots_by_workspace_time on snapshots s[^\n]*\n\s+Index Cond: \(\(workspace_id = '[^']+'::text\) AND \(ROW\(collected_ms, id\) < ROW/);
    expect(page).not.toMatch(/Sort Key/);
    // SQLite: snapshots_by_prompt_time (prompt_id=? AND collected_ms>? AND (collected_ms,id)<(?,?))
    const ofPrompt = await plan((db) => answers(db).page({ ...window, promptId: data.main.promptIds[3] }, 25));
    expect(ofPrompt).toMatch(/Index Scan Backward using snapshots_by_prompt_time/);
    expect(ofPrompt).not.toMatch(/Sort Key/);
    // SQLite: snapshots_by_update (workspace_id=? AND (updated_at,id)>(?,?)), snapshots_by_prompt_update (prompt_id=? AND …)
    const byUpdate = await plan((db) => answers(db).pageByUpdate({ workspaceId: data.main.workspaceId, fromMs: null, untilMs: null, updatedAfter: '2026-01-01T00:00:00.000Z' }, 25));
    expect(byUpdate).toMatch(/Index Scan using snapshots_by_update on snapshots s[^\n]*\n\s+Index Cond: \(\(workspace_id = '[^']+'::text\) AND \(ROW\(updated_at, id\) > ROW/);
    expect(byUpdate).not.toMatch(/Sort Key/);
    const ofPromptByUpdate = await plan((db) => answers(db).pageByUpdate({ workspaceId: data.main.workspaceId, fromMs: null, untilMs: null, promptId: data.main.promptIds[3] }, 25, ['2026-01-01T00:00:00.000Z', '']));
    expect(ofPromptByUpdate).toMatch(/Index Scan using snapshots_by_prompt_update/);
    expect(ofPromptByUpdate).not.toMatch(/Sort Key/);
    // SQLite: sqlite_autoindex_snapshots_1 (id=?); competitors by sqlite_autoindex_competitors_2
    expect(await plan((db) => answers(db).get(data.main.workspaceId, data.main.answerIds[0]!))).toMatch(/Index Scan using snapshots_pkey/);
    const names = await plan((db) => answers(db).competitorNames(data.main.workspaceId));
    expect(names).toMatch(/Index Scan using competitors_workspace_id_name_key_key/);
    expect(names).not.toMatch(/Sort Key/);
  });

  it('cited pages: the daily rollup by its primary key, URLs by id and by address, pages by address and id', async () => {
    const cited = (db: Queryable) => createPostgresCitedPageStore(db);
    const workspaceId = data.main.workspaceId;
    // SQLite: cited_page_daily PRIMARY KEY (workspace_id=? AND day>? AND day<?), cited_urls_by_address, cited_urls rowid
    const list = await plan((db) => cited(db).list({ workspaceId, fromDay: periods.currentStart, toDay: periods.today, address: 'acme.example/pricing' }, 25));
    expect(list).toMatch(/Index Scan using cited_page_daily_pkey/);
    expect(list).toMatch(/Index (Only )?Scan using cited_urls_by_address/);
    expect(list).toMatch(/Index Scan using cited_urls_pkey/);
    // SQLite: pages_by_address (workspace_id=? AND address=?); sqlite_autoindex_pages_1 (id=?)
    expect(await plan((db) => cited(db).contentMapPage(workspaceId, 'https://acme.example/pricing'))).toMatch(/Index Scan using pages_by_address/);
    expect(await plan((db) => cited(db).contentMapPageAddress(workspaceId, data.main.pageIds[0]!))).toMatch(/Index Scan using pages_pkey/);
  });
});
