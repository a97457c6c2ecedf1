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
