import { dateOfDay, dayOf } from '../analytics/periods.js';

/** A billing period as whole UTC days, both ends included (`YYYY-MM-DD`). */
export interface BillingPeriod {
  start: string;
  end: string;
}

/** The UTC calendar month holding `now`: the period used when no plan is on record. */
export function calendarMonthOf(now: Date): BillingPeriod {
  const first = dayOf(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const nextFirst = dayOf(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start: dateOfDay(first), end: dateOfDay(nextFirst - 1) };
}

/** The period's first and last UTC day numbers, both included. */
export function periodDays(period: BillingPeriod): { fromDay: number; toDay: number } {
  return { fromDay: dayOf(Date.parse(`${period.start}T00:00:00Z`)), toDay: dayOf(Date.parse(`${period.end}T00:00:00Z`)) };
}
