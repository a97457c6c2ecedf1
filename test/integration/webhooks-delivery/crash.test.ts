import { describe, expect, it } from 'vitest';
import { runCrashTest } from '../../../scripts/webhook-crash-test.js';
import { CLI } from '../../cli/run-cli.js';

// The short version of `scripts/webhook-crash-test.ts` (the full run: 10,000 events, 20 kills).
describe('webhook delivery: crash test', () => {
  it('when the service is killed with SIGKILL at random moments and restarted, every (event, webhook) pair arrives at least once, duplicates under the same webhook-id', async () => {
    const result = await runCrashTest({ events: 500, kills: 4, seed: 20_260_115, cli: CLI });
    expect(result).toEqual({
      events: 500,
      webhooks: 3,
      expected_pairs: 1_500,
      received_pairs: 1_500,
      missing_pairs: 0,
      requests: 1_500 + result.duplicates,
      duplicates: expect.any(Number),
      pairs_with_several_ids: 0,
      bad_signatures: 0,
      kills: 4,
      kills_during_startup: expect.any(Number),
      deliveries_not_delivered: 0,
      seconds: expect.any(Number),
    });
  }, 180_000);
});
