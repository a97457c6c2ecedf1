// RFC 3339 with a time zone, as loosely as ajv's date-time format reads it (offset minutes
// optional), which has already checked the calendar.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * Epoch milliseconds of an RFC 3339 timestamp, or undefined when it is not one. Written out rather
 * than Date.parse, which rejects offsets without a colon and is loose about everything else.
 * Digits past the millisecond are dropped; a leap second (`23:59:60`) counts as the last
 * millisecond of its minute, so it stays on its own UTC day.
 */
export function parseTimestamp(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const second = Number(m[6]);
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  const year = Number(m[1]);
  let ms = Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Math.min(second, 59), second === 60 ? 999 : millis);
  // Date.UTC reads years 0–99 as 1900–1999.
  if (year < 100) ms = new Date(ms).setUTCFullYear(year);
  if (m[8] !== undefined) {
    const offset = (Number(m[9]) * 60 + Number(m[10] ?? 0)) * 60_000;
    ms += m[8] === '+' ? -offset : offset;
  }
  return Number.isFinite(ms) ? ms : undefined;
}

export const DAY_MS = 86_400_000;
