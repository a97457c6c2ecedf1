import { describe, expect, it } from 'vitest';
import { loadConfig, parseDurationList } from '../../../../src/config.js';
import { maxAttemptsOf, retryDelayMs } from '../../../../src/webhooks/delivery/schedule.js';

const DAY_MS = 86_400_000;

describe('webhook retry schedule', () => {
  it('when nothing is configured, retries after 10 s and 60 s, then for more than three days even with the largest downward jitter', () => {
    const { retryScheduleMs } = loadConfig({}).webhooks;
    expect(retryScheduleMs).toEqual([10_000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, DAY_MS, DAY_MS, DAY_MS]);
    expect(maxAttemptsOf(retryScheduleMs)).toBe(11);
    const shortest = retryScheduleMs.reduce((sum, _, i) => sum + retryDelayMs(retryScheduleMs, i + 1, () => 0), 0);
    expect(shortest).toBeGreaterThan(3 * DAY_MS);
  });

  it('when a schedule is configured, reads durations with units and bare milliseconds', () => {
    expect(parseDurationList('50ms, 2s,1m,1.5h,1d,250', 'X')).toEqual([50, 2_000, 60_000, 5_400_000, DAY_MS, 250]);
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '10ms,20ms' }).webhooks.retryScheduleMs).toEqual([10, 20]);
  });

  it('when a schedule is malformed, names the setting', () => {
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1m,soon' })).toThrow(/WEBHOOK_RETRY_SCHEDULE must be a comma-separated list/);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE: 'maybe' })).toThrow(/WEBHOOK_ALLOW_PRIVATE must be true or false/);
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '0' })).toThrow(/WEBHOOK_TIMEOUT_MS must be at least 1/);
  });

  it('when an attempt fails, waits its step of the schedule within ±20% jitter', () => {
    const schedule = [1_000, 5_000, 30_000];
    expect(retryDelayMs(schedule, 1, () => 0)).toBe(800);
    expect(retryDelayMs(schedule, 1, () => 0.5)).toBe(1_000);
    expect(retryDelayMs(schedule, 2, () => 0.999_999)).toBe(6_000);
    expect(retryDelayMs(schedule, 3, () => 0.5)).toBe(30_000);
    // A schedule shortened while deliveries were in progress repeats its last step.
    expect(retryDelayMs(schedule, 7, () => 0.5)).toBe(30_000);
  });

  it('when the switch for private targets is off by default, keeps it off', () => {
    expect(loadConfig({}).webhooks.allowPrivate).toBe(false);
    expect(loadConfig({ WEBHOOK_ALLOW_PRIVATE: '1' }).webhooks.allowPrivate).toBe(true);
  });
});
