/** A delivery gets a first attempt, then one more after each wait of the schedule. */
export function maxAttemptsOf(scheduleMs: readonly number[]): number {
  return scheduleMs.length + 1;
}

// ±20%: spreads the retries of many deliveries that failed together (a receiver outage) so they do
// not come back as one burst, while the default schedule still spans more than three days.
const JITTER = 0.2;

/**
 * The wait before the next attempt after attempt number `attempt` (1-based) failed: the schedule's
 * step for it (the last step repeats if the schedule was shortened meanwhile), with jitter.
 */
export function retryDelayMs(scheduleMs: readonly number[], attempt: number, random: () => number = Math.random): number {
  const step = scheduleMs[Math.min(Math.max(attempt, 1), scheduleMs.length) - 1] ?? 0;
  return Math.max(0, Math.round(step * (1 - JITTER + 2 * JITTER * random())));
}
