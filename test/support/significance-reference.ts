// A reference for the significance of a rate change, written from the contract's description
// (openapi/components/schemas/Significance.yaml) without sharing any code or method with the
// service: Fisher's exact test in exact integer arithmetic, the z-test's normal tail by numerical
// integration of the density. Slow, plain and obviously right; the tests compare the service with it.

/** Fisher's exact test below this total, the z-test from it on (the contract's threshold). */
export const REFERENCE_FISHER_BELOW = 1000;

/** C(n, 0), C(n, 1), …, C(n, n) as exact integers. */
function binomialRow(n: number): bigint[] {
  const row = [1n];
  for (let k = 0; k < n; k += 1) row.push((row[k]! * BigInt(n - k)) / BigInt(k + 1));
  return row;
}

/**
 * Two-sided Fisher p-value: the weight of every table C(K,k)·C(N−K, n₁−k) that is at most the
 * observed one's times (1 + 10⁻⁷), over the weight of all tables, compared exactly.
 */
function referenceFisher(x1: number, n1: number, x2: number, n2: number): number {
  const hits = x1 + x2;
  const misses = n1 + n2 - hits;
  const ofHits = binomialRow(hits);
  const ofMisses = binomialRow(misses);
  const weight = (k: number) => (k < 0 || k > hits || n1 - k < 0 || n1 - k > misses ? 0n : ofHits[k]! * ofMisses[n1 - k]!);
  const observed = weight(x1);
  let all = 0n;
  let asExtreme = 0n;
  for (let k = 0; k <= n1; k += 1) {
    const w = weight(k);
    all += w;
    if (w * 10_000_000n <= observed * 10_000_001n) asExtreme += w;
  }
  return Number((asExtreme * 10n ** 24n) / all) / 1e24;
}

/** ∫₀ˣ φ(t) dt by composite Simpson's rule over 20,000 intervals. */
function normalMass(x: number): number {
  const intervals = 20_000;
  const h = x / intervals;
  const phi = (t: number) => Math.exp(-(t * t) / 2) / Math.sqrt(2 * Math.PI);
  let sum = phi(0) + phi(x);
  for (let i = 1; i < intervals; i += 1) sum += (i % 2 === 1 ? 4 : 2) * phi(i * h);
  return (sum * h) / 3;
}

/** Two-sided pooled two-proportion z-test p-value, 1 when the pooled rate is 0 or 1. */
function referenceZTest(x1: number, n1: number, x2: number, n2: number): number {
  const pooled = (x1 + x2) / (n1 + n2);
  if (pooled === 0 || pooled === 1) return 1;
  const z = (x1 / n1 - x2 / n2) / Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  // Beyond 12 standard deviations the tail is below 1e-32: zero at any precision the API shows.
  return Math.abs(z) > 12 ? 0 : Math.max(0, 1 - 2 * normalMass(Math.abs(z)));
}

/** The unrounded p-value the contract defines; null when either period has no snapshot. */
export function referencePValue(x1: number, n1: number, x2: number, n2: number): number | null {
  if (n1 === 0 || n2 === 0) return null;
  return n1 + n2 < REFERENCE_FISHER_BELOW ? referenceFisher(x1, n1, x2, n2) : referenceZTest(x1, n1, x2, n2);
}

/** p rounded half away from zero to 4 decimals by decimal string arithmetic. */
function referenceRound(p: number): number {
  const [whole, fraction = ''] = p.toFixed(12).split('.');
  const digits = `${whole}${fraction.slice(0, 4)}`;
  const up = Number(fraction[4] ?? '0') >= 5 ? 1 : 0;
  return (Number(digits) + up) / 10_000;
}

/**
 * Whether an answered significance agrees with the reference p-value at `alpha`. Within 1e-9 of a
 * rounding half or of alpha, either side of the boundary is accepted: the two computations may
 * differ there by float noise.
 */
export function agreesWithReference(answered: { p_value: number; significant: boolean } | null, p: number | null, alpha: number): boolean {
  if (p === null || answered === null) return p === answered;
  const nearHalf = Math.abs(((p * 10_000) % 1) - 0.5) < 1e-5;
  const roundedOk = nearHalf ? Math.abs(answered.p_value - p) <= 0.00005 + 1e-9 : answered.p_value === referenceRound(p);
  const significantOk = Math.abs(p - alpha) < 1e-9 || answered.significant === p < alpha;
  return roundedOk && significantOk;
}
