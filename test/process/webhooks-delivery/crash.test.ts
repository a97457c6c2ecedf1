import { describe, expect, it } from 'vitest';
import { runCrashTest } from '../../../scripts/webhook-crash-test.js';
import { CLI } from '../../cli/run-cli.js';

// The short version of `scripts/webhook-crash-test.ts` (the full run: 10,000 events, 20 kills).
// Each kill costs a `serve` start, most of this test's CPU, so two kills here; the full run is
// where many kills are. The seed's first draws put the first kill 524 ms into delivery, with
// attempts in flight to all three receivers (the later draws also depend on the receivers' timing).
const EVENTS = 300;
const KILLS = 2;
const SEED = 314_159_265;

describe('webhook delivery: crash test', () => {
  it('when the service is killed with SIGKILL at random moments and restarted, every (event, webhook) pair arrives at least once, duplicates under the same webhook-id', async () => {
    const result = await runCrashTest({ events: EVENTS, kills: KILLS, seed: SEED, cli: CLI });
    console.log(`crash test: ${JSON.stringify(result)}`);
    expect(result).toEqual({
      events: EVENTS,
      webhooks: 3,
      expected_pairs: 3 * EVENTS,
      received_pairs: 3 * EVENTS,
      missing_pairs: 0,
      requests: 3 * EVENTS + result.duplicates,
      duplicates: expect.any(Number),
      pairs_with_several_ids: 0,
      bad_signatures: 0,
      kills: KILLS,
      kills_during_startup: expect.any(Number),
      deliveries_not_delivered: 0,
      seconds: expect.any(Number),
    });
  }, 180_000);
});
