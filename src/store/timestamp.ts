// RFC 3339 with a time zone (as ajv-formats reads it: offset minutes optional, `t` or a space
// between date and time).
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * Epoch milliseconds of an RFC 3339 timestamp, or undefined when it is not one (calendar checked:
 * no 30 February). Written out rather than Date.parse, which is loose about everything else. It
 * is also the `date-time` format of the import's schema validation.
 * Digits past the millisecond are dropped; a leap second (`23:59:60`) counts as the last
 * millisecond of its minute, so it stays on its own UTC day.
 */
export function parseTimestamp(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  const offsetHours = m[9] === undefined ? 0 : Number(m[9]);
  const offsetMinutes = m[10] === undefined ? 0 : Number(m[10]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  // A leap second ends a UTC day: 23:59:60 in UTC, written at any offset (RFC 3339's own example
  // is 15:59:60-08:00), as the contract's date-time format reads it.
  const utcMinute = hour * 60 + minute - (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  if (second === 60 && (utcMinute + 1440) % 1440 !== 1439) return undefined;
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  let ms = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59), second === 60 ? 999 : millis);
  // Date.UTC reads years 0–99 as 1900–1999.
  if (year < 100) ms = new Date(ms).setUTCFullYear(year);
  const offset = (offsetHours * 60 + offsetMinutes) * 60_000;
  return m[8] === '-' ? ms + offset : ms - offset;
}

/**
 * The instant an RFC 3339 timestamp names, or undefined when it is not one: how every date-time a
 * request or a command takes is read, so a leap second (`2030-06-30T23:59:60Z`) is accepted
 * everywhere, as the last millisecond of its minute (`…:59.999Z`), where `new Date()` gives an
 * invalid date.
 */
export function instantOf(text: string): Date | undefined {
  const ms = parseTimestamp(text);
  return ms === undefined ? undefined : new Date(ms);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export const DAY_MS = 86_400_000;
