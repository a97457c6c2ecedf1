import { describe, expect, it } from 'vitest';
import { parseTimestamp } from '../../../src/store/timestamp.js';

describe('parseTimestamp', () => {
  it('reads UTC and offsets, with or without a colon, to epoch milliseconds', () => {
    expect(parseTimestamp('2026-11-22T09:15:00.000Z')).toBe(Date.UTC(2026, 10, 22, 9, 15));
    expect(parseTimestamp('2026-11-22T09:15:00z')).toBe(Date.UTC(2026, 10, 22, 9, 15));
    expect(parseTimestamp('2026-11-22T11:15:00+02:00')).toBe(Date.UTC(2026, 10, 22, 9, 15));
    expect(parseTimestamp('2026-11-22 04:15:00-0500')).toBe(Date.UTC(2026, 10, 22, 9, 15));
    expect(parseTimestamp('2026-11-22T10:15:00+01')).toBe(Date.UTC(2026, 10, 22, 9, 15));
  });

  it('keeps milliseconds and drops finer digits', () => {
    expect(parseTimestamp('2026-11-22T09:15:00.1Z')).toBe(Date.UTC(2026, 10, 22, 9, 15, 0, 100));
    expect(parseTimestamp('2026-11-22T09:15:00.123999Z')).toBe(Date.UTC(2026, 10, 22, 9, 15, 0, 123));
  });

  it('keeps a leap second on its own UTC day', () => {
    expect(parseTimestamp('2016-12-31T23:59:60Z')).toBe(Date.UTC(2016, 11, 31, 23, 59, 59, 999));
    expect(parseTimestamp('2016-12-31T22:59:60Z')).toBeUndefined();
  });

  it('reads a leap second written at an offset, as RFC 3339 writes it (15:59:60-08:00), when it is 23:59:60 in UTC', () => {
    expect(parseTimestamp('1990-12-31T15:59:60-08:00')).toBe(Date.UTC(1990, 11, 31, 23, 59, 59, 999));
    expect(parseTimestamp('2017-01-01T00:59:60+01:00')).toBe(Date.UTC(2016, 11, 31, 23, 59, 59, 999));
    expect(parseTimestamp('2016-12-31T23:59:60+01:00')).toBeUndefined();
    expect(parseTimestamp('2016-12-31T23:59:60-00:30')).toBeUndefined();
  });

  it('checks the calendar', () => {
    expect(parseTimestamp('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
    expect(parseTimestamp('2026-02-29T00:00:00Z')).toBeUndefined();
    expect(parseTimestamp('2026-04-31T00:00:00Z')).toBeUndefined();
    expect(parseTimestamp('2026-13-01T00:00:00Z')).toBeUndefined();
    expect(parseTimestamp('2026-01-01T24:00:00Z')).toBeUndefined();
    expect(parseTimestamp('2026-01-01T00:00:00+24:00')).toBeUndefined();
  });

  it('reads years before 100 as they are written', () => {
    expect(new Date(parseTimestamp('0050-06-01T00:00:00Z')!).toISOString()).toBe('0050-06-01T00:00:00.000Z');
  });

  it('refuses what is not an RFC 3339 date-time with a zone', () => {
    for (const text of ['2026-11-22', '2026-11-22T09:15:00', '2026-11-22T9:15:00Z', 'yesterday', '2026-11-22T09:15Z']) {
      expect(parseTimestamp(text)).toBeUndefined();
    }
  });
});
