import { describe, expect, it } from 'vitest';
import { demoScenario, importScenarios, rejectedFiles, revisitedDemoScenario, scrambledDemoScenario, type ImportScenario } from '../support/import-scenarios.js';
import { importIntoPostgres, importIntoSqlite, importPairForThisTest, postgresContents, sqliteContents } from '../support/import-parity.js';
import { postgresAvailable } from '../support/postgres.js';
import type { PostgresImportBounds } from '../../src/store/postgres/import/import-store.js';

/** Imports every step into both stores; expects the same summary from each step and the same rows at the end. */
async function expectSameImports(scenario: ImportScenario, batchSize?: number, bounds?: Partial<PostgresImportBounds>): Promise<void> {
  const pair = await importPairForThisTest(bounds);
  for (const [i, step] of scenario.steps.entries()) {
    const fromSqlite = await importIntoSqlite(pair, step);
    expect(await importIntoPostgres(pair, step, batchSize), `step ${i + 1} on PostgreSQL`).toEqual(fromSqlite);
    expect(fromSqlite, `step ${i + 1} succeeds`).not.toHaveProperty('error');
  }
  expect(await postgresContents(pair.pool)).toEqual(sqliteContents(pair.sqlite.db));
}

describe.skipIf(!postgresAvailable())('import on PostgreSQL against SQLite: the same files, the same summaries, the same rows', () => {
  for (const scenario of importScenarios()) {
    it(`${scenario.name}: every summary and every table alike`, async () => {
      await expectSameImports(scenario);
    });
  }

  it('the demo data, imported twice: every summary and every table alike, rollups and cited pages included', async () => {
    await expectSameImports(demoScenario({ prompts: 12, days: 60, answersPerDay: 2 }));
  }, 120_000);

  // Four batches at the default batch size, each writing its rollups, and running totals past the
  // bound held in memory, as in the next test with small batches: a bound low enough for a small
  // file, rather than a file large enough for the default bound, runs the same code (30 prompts
  // over 60 days took 10 s and stayed under the default bound).
  it('the demo data in scrambled day order, its rollups written batch by batch and its running totals outgrowing memory: every summary and every table alike', async () => {
    await expectSameImports(scrambledDemoScenario({ prompts: 8, days: 40, answersPerDay: 2 }), undefined, { seriesInMemory: 500 });
  }, 240_000);

  it('with small batches and the running totals outgrowing memory: the scrambled demo alike, so the bounds change nothing', async () => {
    await expectSameImports(scrambledDemoScenario({ prompts: 8, days: 40, answersPerDay: 2 }), undefined, { batchLines: 300, seriesInMemory: 500 });
  }, 240_000);

  it('with small batches over answers that come back later in the file: the same, so applying a batch while the one before is written changes nothing', async () => {
    await expectSameImports(revisitedDemoScenario({ prompts: 6, days: 30, answersPerDay: 2 }), undefined, { batchLines: 100 });
  }, 240_000);

  it('sends one statement at a time on its connection while it reads ahead: the driver warns of nothing', async () => {
    // pg 8 queues a statement sent while another runs and prints a DeprecationWarning (pg 9 refuses it).
    const pair = await importPairForThisTest({ batchLines: 100 });
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', warned);
    try {
      for (const step of revisitedDemoScenario({ prompts: 3, days: 10, answersPerDay: 2 }).steps) {
        expect(await importIntoPostgres(pair, step)).not.toHaveProperty('error');
      }
    } finally {
      process.off('warning', warned);
    }
    expect(warnings).toEqual([]);
  });

  it('when the lines arrive one at a time, the batches PostgreSQL makes of them change nothing', async () => {
    await expectSameImports(importScenarios()[0]!, 1);
  });

  for (const bad of rejectedFiles()) {
    it(`${bad.name}: the same ImportError, and PostgreSQL keeps what it held`, async () => {
      const pair = await importPairForThisTest();
      for (const step of bad.before) {
        expect(await importIntoPostgres(pair, step)).toEqual(await importIntoSqlite(pair, step));
      }
      const before = await postgresContents(pair.pool);
      const fromSqlite = await importIntoSqlite(pair, bad.file);
      expect(fromSqlite).toMatchObject({ name: 'ImportError', error: expect.stringMatching(/^line \d+: /) });
      expect(await importIntoPostgres(pair, bad.file)).toEqual(fromSqlite);
      expect(await postgresContents(pair.pool)).toEqual(before);
    });
  }
});
