// `Number()` and JSON-schema coercion read `0x10`, `1e1`, ` 5`, `5.0`, `+5` and `Infinity` as
// numbers. Integers typed by people (query parameters, command-line flags, environment settings)
// are taken only as plain decimal digits, so every accepted spelling means one obvious value.
const DIGITS = /^[0-9]+$/;

/** `"42"` → 42; undefined for anything that is not plain decimal digits or not a safe integer. */
export function parseDecimalInteger(text: string): number | undefined {
  if (!DIGITS.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}
