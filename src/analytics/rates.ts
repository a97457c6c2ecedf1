// Rates are exact: each one is a ratio of integer counts, rounded half away from zero to 4
// decimals with integer arithmetic, so no binary-float artefact (0.00005 stored as 4.99…e-5,
// 1/3 − 1/6 …) can move a result across a rounding boundary.

const SCALE = 10_000;

/** Rounds `numerator / denominator` (denominator > 0) half away from zero to 4 decimals. */
function roundQuotient(numerator: number, denominator: number): number {
  const magnitude = Math.abs(numerator);
  // ⌊(2·|n|·10⁴ + d) / 2d⌋ = ⌊|n|/d · 10⁴ + ½⌋: half rounds up in magnitude, i.e. away from zero.
  const twice = 2 * magnitude * SCALE + denominator;
  const divisor = 2 * denominator;
  let scaled: number;
  if (twice + divisor <= Number.MAX_SAFE_INTEGER) {
    scaled = Math.floor(twice / divisor);
    // The float division can land on the next integer when the true quotient is just below it.
    if (scaled * divisor > twice) scaled -= 1;
  } else {
    scaled = Number((BigInt(magnitude) * BigInt(2 * SCALE) + BigInt(denominator)) / (BigInt(denominator) * 2n));
  }
  const rounded = scaled / SCALE;
  return numerator < 0 && rounded !== 0 ? -rounded : rounded;
}

/** `count / total` rounded; null over zero observations. */
export function rate(count: number, total: number): number | null {
  return total === 0 ? null : roundQuotient(count, total);
}

/**
 * `count/total − previousCount/previousTotal`, from the unrounded rates, then rounded; null when
 * either side has no observation.
 */
export function rateDelta(count: number, total: number, previousCount: number, previousTotal: number): number | null {
  if (total === 0 || previousTotal === 0) return null;
  const numerator = count * previousTotal - previousCount * total;
  const denominator = total * previousTotal;
  if (Number.isSafeInteger(numerator) && Number.isSafeInteger(denominator)) return roundQuotient(numerator, denominator);
  return roundBigQuotient(
    BigInt(count) * BigInt(previousTotal) - BigInt(previousCount) * BigInt(total),
    BigInt(total) * BigInt(previousTotal),
  );
}

function roundBigQuotient(numerator: bigint, denominator: bigint): number {
  const magnitude = numerator < 0n ? -numerator : numerator;
  const scaled = Number((magnitude * BigInt(2 * SCALE) + denominator) / (denominator * 2n)) / SCALE;
  return numerator < 0n && scaled !== 0 ? -scaled : scaled;
}
