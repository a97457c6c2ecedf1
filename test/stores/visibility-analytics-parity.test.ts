import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, periodsFor } from '../../src/analytics/periods.js';
import type { PeriodBounds, VisibilityAnalyticsStore } from '../../src/store/interfaces/visibility-analytics.js';
import { createPostgresVisibilityAnalyticsStore } from '../../src/store/postgres/visibility-analytics.js';
import { postgresAvailable } from '../support/postgres.js';
import { openParityData, TODAY, type ParityData } from '../support/visibility-parity.js';

const UNKNOWN_ID = '00000000-0000-4000-a000-000000000000';

/** Each range ending today, on the data's last day, long after it, in the middle of it and before its first answer. */
function everyPeriod(): PeriodBounds[] {
  const todays = [TODAY, TODAY + 2, TODAY + 400, TODAY - 100, TODAY - 195, TODAY - 400];
  return todays.flatMap((today) => (['7d', '30d', '90d'] as const).map((range) => periodsFor(range, new Date(today * DAY_MS + 1))));
}

describe.skipIf(!postgresAvailable())('PostgreSQL visibility analytics store reads what the SQLite one reads', () => {
  let data: ParityData;
  let sqlite: VisibilityAnalyticsStore;
  let postgres: VisibilityAnalyticsStore;

  beforeAll(async () => {
    data = await openParityData();
    sqlite = data.sqlite.visibilityAnalytics;
    postgres = createPostgresVisibilityAnalyticsStore(data.pool);
  });
  afterAll(async () => {
    await data?.close();
  });

  it('promptPeriodTotals: every prompt over every range, counts near 2^42 included', async () => {
    const prompts = [...data.main.promptIds, ...data.other.promptIds, ...data.big.promptIds, UNKNOWN_ID];
    let withDays = 0;
    for (const periods of everyPeriod()) {
      for (const promptId of prompts) {
        const expected = await sqlite.promptPeriodTotals(promptId, periods);
        expect(await postgres.promptPeriodTotals(promptId, periods), JSON.stringify({ promptId, periods })).toStrictEqual(expected);
        if (expected.days.length > 0 && expected.platforms.length > 1 && expected.previous.total > 0) withDays += 1;
      }
    }
    expect(withDays).toBeGreaterThan(50);
    const big = await sqlite.promptPeriodTotals(data.big.promptIds[0]!, periodsFor('30d', new Date(TODAY * DAY_MS)));
    expect(big.platforms[0]!.total).toBeGreaterThan(2 ** 45);
  });

  it('promptCompetitorMentions: every tracked competitor in SQLite\'s order, for every prompt and range', async () => {
    let mentioned = 0;
    for (const periods of everyPeriod()) {
      for (const [workspaceId, promptIds] of [
        [data.main.workspaceId, data.main.promptIds],
        [data.other.workspaceId, data.other.promptIds],
        [data.big.workspaceId, data.big.promptIds],
        [data.empty.workspaceId, [data.main.promptIds[0]!]],
        [data.main.workspaceId, [UNKNOWN_ID]],
      ] as const) {
        for (const promptId of promptIds) {
          const asked = [workspaceId, promptId, periods.currentStart, periods.today] as const;
          const expected = await sqlite.promptCompetitorMentions(...asked);
          expect(await postgres.promptCompetitorMentions(...asked), JSON.stringify(asked)).toStrictEqual(expected);
          mentioned += expected.filter((c) => c.mentions > 0).length;
        }
      }
    }
    expect(mentioned).toBeGreaterThan(100);
    // A day range after its end, as the reads never ask but the method takes.
    const reversed = [data.main.workspaceId, data.main.promptIds[0]!, TODAY, TODAY - 30] as const;
    expect(await postgres.promptCompetitorMentions(...reversed)).toStrictEqual(await sqlite.promptCompetitorMentions(...reversed));
  });

  it('promptPeriodCounts: a page of prompts in the order given, without the ones that have no answer yet', async () => {
    const lists: string[][] = [
      data.main.promptIds,
      [...data.main.promptIds].reverse(),
      data.main.promptIds.slice(5, 12),
      [data.main.promptIds[3]!, UNKNOWN_ID, data.other.promptIds[0]!, data.main.promptIds[3]!, data.main.promptIds[1]!],
      data.big.promptIds,
      [UNKNOWN_ID],
      [],
    ];
    for (const periods of everyPeriod()) {
      for (const ids of lists) {
        const expected = await sqlite.promptPeriodCounts(ids, periods);
        expect(await postgres.promptPeriodCounts(ids, periods), JSON.stringify({ ids, periods })).toStrictEqual(expected);
      }
    }
    const all = await sqlite.promptPeriodCounts(data.main.promptIds, periodsFor('90d', new Date(TODAY * DAY_MS)));
    expect(all.length).toBeGreaterThan(30);
    expect(all.length).toBeLessThan(data.main.promptIds.length);
  });
});
