import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, periodsFor } from '../../src/analytics/periods.js';
import { PLATFORMS, type Periods } from '../../src/store/interfaces/visibility-rows.js';
import type { VisibilityOverviewStore } from '../../src/store/interfaces/visibility-overview.js';
import { createPostgresVisibilityOverviewStore } from '../../src/store/postgres/visibility-overview.js';
import { postgresAvailable } from '../support/postgres.js';
import { openParityData, TODAY, type ParityData } from '../support/visibility-parity.js';

const UNKNOWN_ID = '00000000-0000-4000-a000-000000000000';

/** Each range ending on the data's last day, long after it, in the middle of it and before its first answer. */
function everyPeriod(): Periods[] {
  const todays = [TODAY, TODAY + 400, TODAY - 100, TODAY - 400];
  return todays.flatMap((today) => (['7d', '30d', '90d'] as const).map((range) => periodsFor(range, new Date(today * DAY_MS + 1))));
}

describe.skipIf(!postgresAvailable())('PostgreSQL visibility overview store reads what the SQLite one reads', () => {
  let data: ParityData;
  let sqlite: VisibilityOverviewStore;
  let postgres: VisibilityOverviewStore;
  let workspaces: string[];

  beforeAll(async () => {
    data = await openParityData();
    sqlite = data.sqlite.visibilityOverview;
    postgres = createPostgresVisibilityOverviewStore(data.pool);
    workspaces = [data.main.workspaceId, data.other.workspaceId, data.empty.workspaceId, data.big.workspaceId, UNKNOWN_ID];
  });
  afterAll(async () => {
    await data?.close();
  });

  it('setupCounts: the counts of every workspace, NULL collection time and zeros where it has nothing', async () => {
    for (const workspaceId of workspaces) {
      expect(await postgres.setupCounts(workspaceId), workspaceId).toStrictEqual(await sqlite.setupCounts(workspaceId));
    }
    expect(await sqlite.setupCounts(data.empty.workspaceId)).toStrictEqual({
      competitor_count: 0, total: 0, pending: 0, generating: 0, active: 0, last_collected_ms: null,
    });
  });

  it('workspaceDaily: the rollup rows of every range, of all platforms and of each, in (day, platform) order', async () => {
    let compared = 0;
    for (const workspaceId of workspaces) {
      for (const periods of everyPeriod()) {
        for (const platform of [undefined, ...PLATFORMS]) {
          for (const [from, to] of [[periods.previousStart, periods.today], [periods.currentStart, periods.today], [periods.today, periods.currentStart]]) {
            const expected = await sqlite.workspaceDaily(workspaceId, from!, to!, platform);
            expect(await postgres.workspaceDaily(workspaceId, from!, to!, platform), JSON.stringify({ workspaceId, from, to, platform })).toStrictEqual(expected);
            compared += expected.length;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
    const big = await sqlite.workspaceDaily(data.big.workspaceId, TODAY - 5, TODAY);
    expect(big[0]!.total).toBeGreaterThan(2 ** 42);
  });

  it('competitorMentions: every tracked competitor in SQLite\'s order, with both periods\' sums', async () => {
    let mentioned = 0;
    for (const workspaceId of workspaces) {
      for (const periods of everyPeriod()) {
        const expected = await sqlite.competitorMentions(workspaceId, periods);
        expect(await postgres.competitorMentions(workspaceId, periods), JSON.stringify({ workspaceId, periods })).toStrictEqual(expected);
        mentioned += expected.filter((c) => c.current > 0 && c.previous > 0).length;
      }
    }
    expect(mentioned).toBeGreaterThan(10);
    const big = await sqlite.competitorMentions(data.big.workspaceId, periodsFor('90d', new Date(TODAY * DAY_MS)));
    expect(Math.max(...big.map((c) => c.current))).toBeGreaterThan(2 ** 45);
  });
});
