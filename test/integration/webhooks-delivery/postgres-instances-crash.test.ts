import { describe, expect, it } from 'vitest';
import { runInstancesCrashTest } from '../../../scripts/webhook-instances-crash-test.js';
import { CLI } from '../../cli/run-cli.js';
import { createPostgresDatabase, postgresAvailable } from '../../support/postgres.js';

// Its figures (deliveries, duplicates, time, backlog peak) are recorded in bench/README.md.
describe.skipIf(!postgresAvailable())('webhook delivery: three instances over one PostgreSQL, killed and restarted', () => {
  it('when instances are killed with SIGKILL 20 times while 10,000 events arrive, every (event, webhook) pair arrives, duplicates under the same webhook-id, and /metrics shows the backlog rise and drain', async () => {
    const result = await runInstancesCrashTest({ databaseUrl: await createPostgresDatabase(), events: 10_000, kills: 20, webhooks: 1, seed: 20_261_123, cli: CLI, settleTimeoutMs: 80_000 });
    console.log(`instances crash test: ${JSON.stringify(result)}`);
    expect(result).toEqual({
      instances: 3,
      events: 10_000,
      webhooks: 1,
      expected_pairs: 10_000,
      received_pairs: 10_000,
      missing_pairs: 0,
      requests: 10_000 + result.duplicates,
      duplicates: expect.any(Number),
      pairs_with_several_ids: 0,
      bad_signatures: 0,
      kills: 20,
      deliveries_not_delivered: 0,
      backlog_peak: expect.any(Number),
      backlog_last: 0,
      scrapes: expect.any(Number),
      seconds: expect.any(Number),
    });
    // Batches of about 476 events arrive faster than a batch goes out between kills: the backlog
    // climbs past one batch before it drains to the last scrape's 0.
    expect(result.backlog_peak).toBeGreaterThan(476);
  }, 180_000);
});
