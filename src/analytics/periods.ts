import type { Periods, RangeValue } from '../store/interfaces/visibility-rows.js';

export type { Periods, RangeValue };

export const DAY_MS = 86_400_000;

const RANGE_DAYS: Record<RangeValue, number> = { '7d': 7, '30d': 30, '90d': 90 };

/** UTC day number of an instant: days since 1970-01-01, the same numbering as the rollup tables. */
export function dayOf(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** `YYYY-MM-DD` of a UTC day number. */
export function dateOfDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function periodsFor(range: RangeValue, now: Date): Periods {
  const days = RANGE_DAYS[range];
  const today = dayOf(now.getTime());
  const currentStart = today - days + 1;
  return { range, days, currentStart, today, previousStart: currentStart - days, previousEnd: currentStart - 1 };
}

/**
 * Both periods as instants (epoch milliseconds), as a statement over collection times takes them:
 * the previous period is [previous_from_ms, current_from_ms), the current one [current_from_ms, until_ms).
 */
export function periodInstants(periods: Periods): { previous_from_ms: number; current_from_ms: number; until_ms: number } {
  return { previous_from_ms: periods.previousStart * DAY_MS, current_from_ms: periods.currentStart * DAY_MS, until_ms: (periods.today + 1) * DAY_MS };
}
