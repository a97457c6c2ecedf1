// A decimal fraction, with an optional exponent (`0.05`, `.5`, `5e-2`): how programs print numbers.
const DECIMAL = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** `"0.05"` → 0.05; undefined for anything else, and for a value too large to be finite (`1e309`). */
export function parseDecimalNumber(text: string): number | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}
