import { describe, expect, it } from 'vitest';
import { dateOfDay, dayOf, periodsFor } from '../../../src/analytics/periods.js';

describe('periodsFor', () => {
  it('the current period is the N UTC days ending today; the previous one the N days before', () => {
    const p = periodsFor('7d', new Date('2026-11-22T10:00:00.000Z'));
    expect([dateOfDay(p.currentStart), dateOfDay(p.today)]).toEqual(['2026-11-16', '2026-11-22']);
    expect([dateOfDay(p.previousStart), dateOfDay(p.previousEnd)]).toEqual(['2026-11-09', '2026-11-15']);
  });

  it('today starts at 00:00:00.000Z and ends at 23:59:59.999Z', () => {
    expect(periodsFor('30d', new Date('2026-11-22T00:00:00.000Z')).today).toBe(dayOf(Date.parse('2026-11-22T23:59:59.999Z')));
    expect(dayOf(Date.parse('2026-11-21T23:59:59.999Z'))).toBe(dayOf(Date.parse('2026-11-22T00:00:00.000Z')) - 1);
  });

  it('covers 30 and 90 days', () => {
    const p30 = periodsFor('30d', new Date('2026-03-01T12:00:00.000Z'));
    expect([dateOfDay(p30.currentStart), dateOfDay(p30.previousStart), dateOfDay(p30.previousEnd)]).toEqual(['2026-01-31', '2026-01-01', '2026-01-30']);
    const p90 = periodsFor('90d', new Date('2026-03-31T23:59:59.999Z'));
    expect([dateOfDay(p90.currentStart), dateOfDay(p90.previousStart)]).toEqual(['2026-01-01', '2025-10-03']);
  });

  it('numbers days before 1970 the same way (floor, not truncation)', () => {
    expect(dayOf(-1)).toBe(-1);
    expect(dateOfDay(-1)).toBe('1969-12-31');
  });
});
