// Is a change between two periods' rates more than noise? A two-sided test of two proportions:
// Fisher's exact test while the two periods together hold fewer than FISHER_BELOW snapshots, the
// pooled two-proportion z-test from there on. The contract states the method with a worked example
// (openapi/components/schemas/Significance.yaml); test/unit/analytics/significance.test.ts pins it
// against an exact reference and against values computed independently.
import type { components } from '../../generated/openapi.js';

export type Significance = components['schemas']['Significance'];

/** Fisher's exact test below this many snapshots in both periods together, the z-test from it on. */
export const FISHER_BELOW = 1000;

// A table whose probability is within this relative margin of the observed table's counts as
// being as extreme as it, so that float noise cannot split tables that tie exactly (R's fisher.test
// and SciPy's fisher_exact use the same margin).
const TIE_MARGIN = 1 + 1e-7;

/** Hits out of a total: what a rate is computed from. */
export type HitCount = components['schemas']['HitCount'];

/**
 * The two-sided p-value for "both periods share one underlying rate" given `current` and
 * `previous` hits; null when either period is empty (the delta is null then too). Unrounded.
 */
export function twoProportionPValue(current: HitCount, previous: HitCount): number | null {
  if (current.total === 0 || previous.total === 0) return null;
  return current.total + previous.total < FISHER_BELOW ? fisherExactPValue(current, previous) : zTestPValue(current, previous);
}

/**
 * Fisher's exact test, two-sided: with every margin of the 2×2 table fixed, the current period's
 * hits follow a hypergeometric law; the p-value is the probability of all tables no more likely
 * than the observed one. Weights are relative to the mode (weight 1), from the ratio of consecutive
 * terms, so nothing overflows. The law is unimodal, so each walk out from the mode stops once its
 * terms fall below 10⁻¹⁷ of the observed table's: all the rest adds less than the p-value's own
 * rounding error, and a test costs a few standard deviations of terms, not the whole support.
 */
function fisherExactPValue(current: HitCount, previous: HitCount): number {
  const n1 = current.total;
  const hits = current.hits + previous.hits;
  const misses = n1 + previous.total - hits;
  const lo = Math.max(0, n1 - misses);
  const hi = Math.min(hits, n1);
  if (lo === hi) return 1;
  // P(k+1)/P(k) for k current-period hits.
  const ratio = (k: number) => ((hits - k) * (n1 - k)) / ((k + 1) * (misses - n1 + k + 1));
  const mode = Math.min(hi, Math.max(lo, Math.floor(((n1 + 1) * (hits + 1)) / (n1 + previous.total + 2))));
  // The observed weight, by the same products the walks below make, so that it compares equal.
  let observed = 1;
  for (let k = mode; k < current.hits; k += 1) observed *= ratio(k);
  for (let k = mode; k > current.hits; k -= 1) observed /= ratio(k - 1);
  const asLikely = observed * TIE_MARGIN;
  const negligible = observed * 1e-17;
  let all = 1;
  let asExtreme = 1 <= asLikely ? 1 : 0;
  let weight = 1;
  for (let k = mode; k < hi && weight >= negligible; k += 1) {
    weight *= ratio(k);
    all += weight;
    if (weight <= asLikely) asExtreme += weight;
  }
  weight = 1;
  for (let k = mode; k > lo && weight >= negligible; k -= 1) {
    weight /= ratio(k - 1);
    all += weight;
    if (weight <= asLikely) asExtreme += weight;
  }
  return Math.min(1, asExtreme / all);
}

/**
 * The pooled two-proportion z-test, two-sided: z = (p₁ − p₂) / √(p̂(1 − p̂)(1/n₁ + 1/n₂)) with p̂
 * the rate of both periods together, and p = erfc(|z|/√2). When p̂ is 0 or 1 both rates are equal
 * and p = 1.
 */
function zTestPValue(current: HitCount, previous: HitCount): number {
  const hits = current.hits + previous.hits;
  const total = current.total + previous.total;
  if (hits === 0 || hits === total) return 1;
  const pooled = hits / total;
  const standardError = Math.sqrt(pooled * (1 - pooled) * (1 / current.total + 1 / previous.total));
  const z = (current.hits / current.total - previous.hits / previous.total) / standardError;
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

const LN_SQRT_PI = 0.5723649429247001; // ln Γ(½)
const EPSILON = 1e-17;
const TINY = 1e-300;

/**
 * The complementary error function for x ≥ 0, as the regularised upper incomplete gamma function
 * Q(½, x²): its power series below x² = 1.5, its continued fraction (modified Lentz) above, each
 * to about 1e-16.
 */
export function erfc(x: number): number {
  const t = x * x;
  if (t === 0) return 1;
  const prefix = Math.exp(-t + 0.5 * Math.log(t) - LN_SQRT_PI);
  if (t < 1.5) {
    // P(½, t) = prefix · Σ tⁿ / (½ (½+1) … (½+n)); Q = 1 − P.
    let term = 2;
    let sum = term;
    for (let a = 0.5; Math.abs(term) > Math.abs(sum) * EPSILON; ) {
      a += 1;
      term *= t / a;
      sum += term;
    }
    return 1 - prefix * sum;
  }
  let b = t + 0.5;
  let c = 1 / TINY;
  let d = 1 / b;
  let fraction = d;
  for (let i = 1; i < 1000; i += 1) {
    const an = -i * (i - 0.5);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    fraction *= step;
    if (Math.abs(step - 1) < EPSILON * 10) break;
  }
  return prefix * fraction;
}

/** `value` (≥ 0) rounded half away from zero to 4 decimals, as rates are. */
function roundProbability(value: number): number {
  // The nearest double to value·10⁴ can sit a hair below a half (0.00015·10⁴ = 1.4999999999999998);
  // a relative nudge far below the p-value's own accuracy keeps such halves rounding up.
  return Math.floor(value * 10_000 * (1 + 1e-12) + 0.5) / 10_000;
}

/** The contract's significance of a change at level `alpha`; null when either period is empty. */
export function significanceOf(current: HitCount, previous: HitCount, alpha: number): Significance | null {
  const p = twoProportionPValue(current, previous);
  return p === null ? null : { p_value: roundProbability(p), significant: p < alpha };
}
